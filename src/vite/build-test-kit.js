// Builds the plugin test kit (src/lib/test-kit) into one self-contained ES module,
// static/plugin-test-kit.js, which the app serves beside plugin-api.d.ts. The file is committed
// so authors can copy it from the repository; a unit test rebuilds it and fails if the
// committed copy differs. Run `npm run build:kit` after changing the hooks or the plugin code,
// and `npm run build:api` (build-plugin-api.js) after changing a hook type: that one writes the
// hook types into static/plugin-api.d.ts, which the kit's own types import.
// Plain JavaScript so that it runs with `node` as it is.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const KIT_ENTRY = resolve(ROOT, 'src/lib/test-kit/plugin-test-kit.ts');
export const KIT_FILE = resolve(ROOT, 'static/plugin-test-kit.js');

const BANNER = `// Palimpsest plugin test kit. Generated from src/lib/test-kit by \`npm run build:kit\`:
// the app's own hook bus, plugin context and command and tool registries, with storage in
// memory. Types: plugin-test-kit.d.ts. Guide: docs/plugins.md, "Test your plugin".
`;

/** The kit's source as one ES module (built in memory; nothing is written). */
export async function buildTestKit() {
	const result = await build({
		configFile: false,
		logLevel: 'silent',
		root: ROOT,
		build: {
			write: false,
			emptyOutDir: false,
			copyPublicDir: false,
			minify: false,
			sourcemap: false,
			target: 'es2022',
			lib: { entry: KIT_ENTRY, formats: ['es'], fileName: () => 'plugin-test-kit.js' },
			rolldownOptions: { output: { banner: BANNER } }
		}
	});
	const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
	const chunks = outputs.filter((o) => o.type === 'chunk');
	if (chunks.length !== 1) throw new Error(`The test kit must build into one file, not ${chunks.length}.`);
	return chunks[0].code;
}

/** Whether static/plugin-test-kit.js is what the source builds to now. */
export async function committedKitIsFresh() {
	const [built, committed] = await Promise.all([buildTestKit(), readFile(KIT_FILE, 'utf8').catch(() => '')]);
	return { fresh: built === committed, built, committed };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	await writeFile(KIT_FILE, await buildTestKit());
	console.log(`Wrote ${KIT_FILE}`);
}
