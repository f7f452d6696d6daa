// Serves `virtual:plugin-runtime-source`: the isolated plugin runtime
// (src/lib/plugins/sandbox/worker-entry.ts, with comlink) built into one classic script, as a
// string. The page hands that text to each plugin's sandboxed frame, which starts it as a
// worker from a blob URL; an opaque-origin frame cannot load the app's own files, and the text
// ships inside the app's code, so it works offline like the rest of it.
import { resolve } from 'node:path';
import { build } from 'vite';

const ID = 'virtual:plugin-runtime-source';
const RESOLVED = `\0${ID}`;

/** @param {string} root */
export async function buildPluginRuntime(root) {
	const entry = resolve(root, 'src/lib/plugins/sandbox/worker-entry.ts');
	const result = await build({
		configFile: false,
		logLevel: 'silent',
		root,
		build: {
			write: false,
			emptyOutDir: false,
			copyPublicDir: false,
			minify: true,
			sourcemap: false,
			target: 'es2022',
			// Strict as a whole, as the modules it is built from are: V8 shows sloppy code no function
			// of a strict frame, or of any frame below one (CallSite.getFunction, `.caller`), so a
			// plugin's getter, however it was loaded, cannot take the runtime's functions off its stack.
			rolldownOptions: { output: { strict: true } },
			lib: { entry, formats: ['iife'], name: 'palimpsestPluginRuntime', fileName: () => 'plugin-runtime.js' }
		}
	});
	const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
	const chunks = outputs.filter((o) => o.type === 'chunk');
	if (chunks.length !== 1) throw new Error(`The plugin runtime must build into one script, not ${chunks.length}.`);
	return chunks[0].code;
}

/**
 * `sourceRoot`: the folder holding src/, when the build's own root is elsewhere (the benchmark
 * harness builds from bench/harness); by default the build's root.
 * @param {{ sourceRoot?: string }} [options]
 * @returns {import('vite').Plugin}
 */
export function pluginRuntimeSource({ sourceRoot } = {}) {
	let root = sourceRoot ?? process.cwd();
	/** @type {Promise<string> | undefined} */
	let built;
	return {
		name: 'palimpsest-plugin-runtime-source',
		configResolved(config) {
			root = sourceRoot ?? config.root;
		},
		resolveId(id) {
			return id === ID ? RESOLVED : undefined;
		},
		async load(id) {
			if (id !== RESOLVED) return undefined;
			built ??= buildPluginRuntime(root);
			return `export default ${JSON.stringify(await built)};`;
		}
	};
}
