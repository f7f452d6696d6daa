import type { ConfigEnv, UserConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { nameEncodingChunks } from './name-encoding-chunks.js';
import { isPrecached } from './precache-filter';

// What SvelteKit's config hook sets for worker chunks in a build.
const SVELTEKIT_WORKER = { rolldownOptions: { output: { chunkFileNames: '_app/immutable/workers/chunks/[hash].js' } } };
const BUILD: ConfigEnv = { command: 'build', mode: 'production' };

function chunkNamer(worker: UserConfig['worker'] = SVELTEKIT_WORKER) {
	const hook = nameEncodingChunks().config;
	const handler = typeof hook === 'function' ? hook : hook?.handler;
	const result = handler?.call({} as never, { worker }, BUILD) as UserConfig | null | undefined;
	const output = result?.worker?.rolldownOptions?.output;
	const names = output && !Array.isArray(output) ? output.chunkFileNames : undefined;
	if (typeof names !== 'function') throw new Error('No chunk namer');
	return (...moduleIds: string[]) => names({ moduleIds, name: 'x', facadeModuleId: null, isEntry: false, isDynamicEntry: true, exports: [] });
}

const PKG = '/app/node_modules/gpt-tokenizer/esm';

describe('nameEncodingChunks', () => {
	it('names the cl100k table chunk so the service worker leaves it out of the precache', () => {
		const name = chunkNamer()(`${PKG}/bpeRanks/cl100k_base.js`, `${PKG}/encoding/cl100k_base.js`);
		expect(name).toBe('_app/immutable/workers/chunks/cl100k_base-[hash].js');
		expect(isPrecached(name)).toBe(false);
	});

	it('names the default o200k table, which stays precached, and leaves other chunks hashed', () => {
		const name = chunkNamer();
		const o200k = name(`${PKG}/bpeRanks/o200k_base.js`, `${PKG}/encoding/o200k_base.js`);
		expect(o200k).toBe('_app/immutable/workers/chunks/o200k_base-[hash].js');
		expect(isPrecached(o200k)).toBe(true);
		expect(isPrecached('_app/immutable/workers/chunks/COlLvdoQ.js')).toBe(true);
		// llama.cpp's WebAssembly engine (10 MB) is fetched when a user first adds an in-browser model.
		expect(isPrecached('/_app/immutable/workers/assets/wllama-CO25czjY.wasm')).toBe(false);
		expect(name(`${PKG}/GptEncoding.js`, `${PKG}/modelParams.js`)).toBe('_app/immutable/workers/chunks/[hash].js');
	});

	it('changes nothing when there is no worker chunk pattern (dev, tests)', () => {
		const hook = nameEncodingChunks().config;
		const handler = typeof hook === 'function' ? hook : hook?.handler;
		expect(handler?.call({} as never, {}, { command: 'serve', mode: 'development' })).toBeUndefined();
	});

	it('names the chunks of PDF.js so the service worker leaves them out of the precache', () => {
		const name = chunkNamer()('/app/node_modules/pdfjs-dist/build/pdf.worker.mjs');
		expect(name).toBe('_app/immutable/workers/chunks/pdfjs-[hash].js');
		expect(isPrecached(name)).toBe(false);
	});
});
