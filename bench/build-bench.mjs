// Builds the benchmarks' own code from the app's TypeScript sources into a temporary folder:
// bench/harness as a page for Chromium (the context worker bundled as a real module Worker and
// the plugin sandbox's runtime built in, as in the app) and bench/node as ES modules for Node
// (the worker thread as its own file).
// The folder is under node_modules/.cache, so the Node modules find the app's packages.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { pluginRuntimeSource } from '../src/vite/plugin-runtime-source.js';

const QUIET = { configFile: false, logLevel: 'warn' };

/**
 * `browser: false` skips the page (a benchmark that drives only the built app).
 * @returns {Promise<{ browserDir: string, nodeEntry: string, threadFile: string, remove: () => Promise<void> }>}
 */
export async function buildBench({ browser = true } = {}) {
	const cache = resolve('node_modules/.cache');
	await mkdir(cache, { recursive: true });
	const dir = await mkdtemp(join(cache, 'palimpsest-bench-'));
	const remove = () => rm(dir, { recursive: true, force: true });
	try {
		await buildInto(dir, browser);
	} catch (error) {
		await remove();
		throw error;
	}
	return {
		browserDir: join(dir, 'browser'),
		nodeEntry: pathToFileURL(join(dir, 'node', 'entry.mjs')).href,
		threadFile: join(dir, 'node', 'context-thread.mjs'),
		remove
	};
}

async function buildInto(dir, browser) {
	const browserDir = join(dir, 'browser');
	const nodeDir = join(dir, 'node');
	if (browser) await build({
		...QUIET,
		root: resolve('bench/harness'),
		// The plugin sandbox's runtime, built from the app's sources as the app's own build does.
		plugins: [pluginRuntimeSource({ sourceRoot: resolve('.') })],
		// The app's static files, among them the plugin frame's document.
		publicDir: resolve('static'),
		worker: { format: 'es' },
		build: {
			outDir: browserDir,
			emptyOutDir: true,
			target: 'es2023',
			reportCompressedSize: false,
			chunkSizeWarningLimit: 4096,
			// The tokenizer tables take the bundler a while; a benchmark does not need telling. The
			// harness imports the plugin sandbox at once, which the app loads on demand.
			rolldownOptions: { checks: { bundlerTimings: false, ineffectiveDynamicImport: false } }
		}
	});
	await build({
		...QUIET,
		build: {
			ssr: true,
			outDir: nodeDir,
			emptyOutDir: true,
			target: 'node20',
			reportCompressedSize: false,
			rolldownOptions: {
				checks: { bundlerTimings: false },
				input: { entry: resolve('bench/node/entry.ts'), 'context-thread': resolve('bench/node/context-thread.ts') },
				output: { format: 'es', entryFileNames: '[name].mjs' }
			}
		}
	});
}

/**
 * Runs `use` with a fresh, uniquely named database of the built harness (`node` from
 * buildBench's nodeEntry, on fake-indexeddb), deleted afterwards whatever happens.
 */
export async function withScratchDb(node, use) {
	const db = new node.PalimpsestDb(`bench-${crypto.randomUUID()}`);
	try {
		return await use(db);
	} finally {
		db.close();
		await db.delete();
	}
}
