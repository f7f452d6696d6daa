// The guide's examples are real: the re-injection pattern shown in the post_compaction card is
// static/plugins/conventions.js, the typed sidecar compiles under strict checking (and a typo
// in it would not), the "Test your plugin" tests pass with node --test against the published
// kit, and the reserved command names are the registry's.
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
