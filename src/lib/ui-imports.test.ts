// Components and routes import only state/, types included (DESIGN §2): the lint rule refuses
// every other layer with no exemption, so a lower layer's change reaches the UI through state/.
import { ESLint } from 'eslint';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOWER_LAYERS = ['db', 'hooks', 'plugins', 'commands', 'context', 'providers', 'sessions', 'agent', 'test-kit'];
const UI_FILES = ['src/lib/components/probe.ts', 'src/routes/probe/+page.ts'];

let eslint: ESLint;
beforeAll(() => {
	eslint = new ESLint({ cwd: ROOT });
});

/** The import-rule messages ESLint gives `code` as if it were the file at `path`. */
async function refusals(code: string, path: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
	return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('the layer rule for components and routes', () => {
	it.each(UI_FILES)('refuses a type-only import of every lower layer in %s, by name or relative path', async (path) => {
		for (const layer of LOWER_LAYERS) {
			const code = `import type { A } from '$lib/${layer}/a';\nimport type { B } from '../../lib/${layer}/deeper/b';\nexport type C = A | B;\n`;
			const messages = await refusals(code, path);
			expect(messages, layer).toHaveLength(2);
			expect(messages[0]).toMatch(/Components and routes import only state\/, types included/);
		}
	});

	it.each(UI_FILES)('refuses Dexie in %s', async (path) => {
		expect(await refusals(`import Dexie from 'dexie';\nexport const d = Dexie;\n`, path)).toHaveLength(1);
	});

	it.each(UI_FILES)('lets %s import the feature folders of state/ and components, those named like a lower layer included', async (path) => {
		for (const layer of LOWER_LAYERS) {
			const code = `import type { A } from '$lib/state/${layer}/a';\nimport B from '$lib/components/${layer}/B.svelte';\nexport const used = [B] as const;\nexport type C = A;\n`;
			expect(await refusals(code, path), layer).toEqual([]);
		}
	});

	it.each(UI_FILES)('still refuses in %s a lower layer reached by a path through a feature folder', async (path) => {
		const code = [
			`import type { A } from '../../lib/state/../sessions/a';`,
			`import type { B } from '../sessions/b';`,
			`import type { C } from '$lib/state/../sessions/c';`,
			`import type { D } from '$lib/components/sync/../../db/d';`,
			`export type E = A | B | C | D;`
		].join('\n');
		expect(await refusals(code, path)).toHaveLength(4);
	});

	it.each(UI_FILES)('lets %s import state/, components and libraries', async (path) => {
		const code = [
			`import type { SessionRow } from '$lib/state/shared/view-types';`,
			`import { app } from '$lib/state/app/app.svelte';`,
			`import Item from '$lib/components/sessions/SessionItem.svelte';`,
			`import { renderMarkdown } from '$lib/components/markdown/render-markdown';`,
			`import { tick } from 'svelte';`,
			`export const used = [app, Item, renderMarkdown, tick] as const;`,
			`export type Row = SessionRow;`
		].join('\n');
		expect(await refusals(code, path)).toEqual([]);
	});
});
