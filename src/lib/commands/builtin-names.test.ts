// Plugin authors learn which command names are taken from the guide and plugin-api.d.ts;
// both must list exactly the names the registry refuses.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES } from './builtin-names';
import { HookBus } from '../hooks/hook-bus';
import { CommandRegistry } from './command-registry';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The backticked names in the parenthesis after "taken by a built-in" in `file`. */
function documentedBuiltins(file: string): string[] {
	const text = readFileSync(resolve(ROOT, file), 'utf8');
	const list = /taken by a built-in[\s*]*\(([^)]*)\)/.exec(text)?.[1];
	expect(list, `${file} lists the built-in names`).toBeTruthy();
	return [...list!.matchAll(/`([a-z0-9_-]+)`/g)].map((m) => m[1]).sort();
}

describe('reserved command names', () => {
	it('are every built-in of the design', () => {
		expect([...BUILTIN_NAMES].sort()).toEqual(['archive', 'compress', 'exit', 'help', 'new', 'reset', 'title', 'usage']);
	});

	it.each(['docs/plugins.md', 'static/plugin-api.d.ts'])('are the names %s says a plugin cannot take', (file) => {
		const documented = documentedBuiltins(file);
		expect(documented).toEqual([...BUILTIN_NAMES].sort());
		const registry = new CommandRegistry(new HookBus({ logger: { warn: () => {} } }));
		for (const name of documented) expect(() => registry.add('p', name, () => '', {}), name).toThrow('is a built-in command');
	});
});
