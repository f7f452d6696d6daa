// The guide's examples are real: the re-injection pattern shown in the post_compaction card is
// static/plugins/conventions.js, the typed sidecar and the recipes compile under strict checking
// (and a typo in the sidecar would not), the "Test your plugin" and recipe tests pass with
// node --test against the published kit, and the reserved command names are the registry's.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES } from '../commands/builtin-names';
import { registerBuiltins, type BuiltinHost } from '../commands/builtins';
import { CommandRegistry } from '../commands/command-registry';
import { HookBus } from '../hooks/hook-bus';
import { compileWithVirtualFile } from '../hooks/compile-virtual';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const GUIDE = readFileSync(resolve(ROOT, 'docs/plugins.md'), 'utf8');

/** The guide's ```js block whose first line is `// <file>`, without the fences. */
function block(file: string): string {
	const found = [...GUIDE.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]).filter((code) => code.startsWith(`// ${file}`));
	expect(found, `one example block starting with // ${file}`).toHaveLength(1);
	return found[0];
}

/** A guide block that is the whole of a file: the ```js block right after `marker`. */
function blockAfter(marker: string): string {
	const at = GUIDE.indexOf(marker);
	expect(at, marker).toBeGreaterThan(-1);
	return /```js\n([\s\S]*?)^```$/m.exec(GUIDE.slice(at))![1];
}

/** Type errors in `code`, checked as a strict JavaScript file beside static/plugin-api.d.ts. */
function typeErrors(code: string): string[] {
	const file = resolve(ROOT, 'static/__guide-example__.js');
	const program = compileWithVirtualFile({ name: file, text: code }, [file]);
	const source = program.getSourceFile(file)!;
	return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('docs/plugins.md examples', () => {
	it('shows the re-injection pattern in full: the post_compaction card holds static/plugins/conventions.js as it is', () => {
		expect(blockAfter('This is [`static/plugins/conventions.js`]')).toBe(readFileSync(resolve(ROOT, 'static/plugins/conventions.js'), 'utf8'));
	});

	it('types the sidecar example under strict checking, and that checking catches a misspelt field or a bad return', () => {
		const sidecar = block('sidecar.js');
		expect(typeErrors(sidecar)).toEqual([]);
		expect(typeErrors(sidecar.replace('async ({ session_id, model })', 'async ({ sesion_id, model })')).join('\n')).toMatch(/sesion_id/);
		const injectsNumber = `${sidecar}\n/** @param {import('./plugin-api.d.ts').PluginContext} ctx */\nexport const bad = (ctx) => ctx.register_hook('pre_llm_call', () => ({ context: 42 }));\n`;
		expect(typeErrors(injectsNumber).join('\n')).toMatch(/number/);
	}, 60_000);

	it('passes its own "Test your plugin" tests with node --test and the published kit', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'palimpsest-guide-'));
		try {
			await writeFile(join(dir, 'conventions.js'), blockAfter('This is [`static/plugins/conventions.js`]'));
			await writeFile(join(dir, 'sidecar.js'), block('sidecar.js'));
			await writeFile(join(dir, 'plugins.test.js'), block('plugins.test.js'));
			await writeFile(join(dir, 'package.json'), '{ "type": "module" }');
			for (const file of ['plugin-test-kit.js', 'plugin-test-kit.d.ts', 'plugin-api.d.ts']) await copyFile(resolve(ROOT, 'static', file), join(dir, file));
			const run = await promisify(execFile)(process.execPath, ['--test', 'plugins.test.js'], { cwd: dir }).catch((error) => error);
			expect(run.stdout ?? '', run.stderr).toMatch(/# pass 3\n# fail 0/);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}, 60_000);

	it('types the recipes under strict checking', () => {
		for (const file of ['reinject.js', 'notes.js']) {
			expect(typeErrors(block(file)), file).toEqual([]);
			expect(typeErrors(block(file).replace("'on_session_delete'", "'on_session_deleted'").replace("'post_compaction'", "'post_compacted'")).join('\n'), file).toMatch(/_compacted|_deleted/);
		}
	}, 60_000);

	it('passes the recipes\' tests with node --test and the published kit, as ES modules by package.json or by .mjs names', async () => {
		const files = { 'reinject.js': block('reinject.js'), 'notes.js': block('notes.js'), 'recipes.test.js': block('recipes.test.js') };
		const kit = ['plugin-test-kit.js', 'plugin-test-kit.d.ts', 'plugin-api.d.ts'];
		const runIn = async (type: string, rename: (file: string) => string) => {
			const dir = await mkdtemp(join(tmpdir(), 'palimpsest-recipes-'));
			try {
				const toMjs = (code: string) => code.replace(/from '\.\/([\w-]+)\.js'/g, (_, name) => `from './${rename(`${name}.js`)}'`);
				for (const [file, code] of Object.entries(files)) await writeFile(join(dir, rename(file)), toMjs(code));
				for (const file of kit) await copyFile(resolve(ROOT, 'static', file), join(dir, rename(file)));
				await writeFile(join(dir, 'package.json'), JSON.stringify({ type }));
				const run = await promisify(execFile)(process.execPath, ['--test', rename('recipes.test.js')], { cwd: dir }).catch((error) => error);
				return `${run.stdout ?? ''}${run.stderr ?? ''}`;
			} finally {
				await rm(dir, { recursive: true, force: true });
			}
		};
		const asMjs = (file: string) => file.replace(/\.js$/, '.mjs');
		expect(await runIn('module', (file) => file)).toMatch(/# pass 2\n# fail 0/);
		expect(await runIn('commonjs', asMjs)).toMatch(/# pass 2\n# fail 0/);
		// As the guide warns: .js files where package.json says CommonJS do not run.
		expect(await runIn('commonjs', (file) => file)).toMatch(/Cannot use import statement outside a module/);
	}, 60_000);

	it('lists the reserved command names as the registry has them: each name, and which are built in', () => {
		const rows = [...GUIDE.matchAll(/^\| `\/([a-z]+)[^`]*` \| (built in|reserved) \|/gm)].map(([, name, status]) => [name, status]);
		expect(rows.map(([name]) => name).sort()).toEqual([...BUILTIN_NAMES].sort());
		const registry = new CommandRegistry(new HookBus());
		// Registering reads nothing of the host: the handlers are not run here.
		registerBuiltins(registry, {} as BuiltinHost);
		const builtIn = registry.list().map((c) => c.name).sort();
		expect(rows.filter(([, status]) => status === 'built in').map(([name]) => name).sort()).toEqual(builtIn);
	});
});
