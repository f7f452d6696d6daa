// The published kit is what src/lib/test-kit builds to now, stands alone (no imports, no
// database, no UI), and its types describe the code it was built from.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { committedKitIsFresh } from '../../vite/build-test-kit.js';
import { compileWithVirtualFile } from '../hooks/compile-virtual';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('static/plugin-test-kit.js', () => {
	it('is what the kit’s source builds to now (run npm run build:kit after changing it)', async () => {
		const { fresh, built, committed } = await committedKitIsFresh();
		expect(committed.length, 'static/plugin-test-kit.js is missing').toBeGreaterThan(0);
		if (!fresh) expect(committed).toBe(built);
		expect(fresh).toBe(true);
	}, 60_000);

	it('stands alone: one module with no imports, no database and no UI code', async () => {
		const { committed } = await committedKitIsFresh();
		expect(committed).not.toMatch(/^\s*import\s/m);
		expect(committed).not.toMatch(/\bimport\(/);
		expect(committed).not.toMatch(/indexedDB|dexie|svelte/i);
		expect(committed).toMatch(/^export \{ createTestKit \};$/m);
	}, 60_000);
});

describe('static/plugin-test-kit.d.ts', () => {
	// Not on disk: the compiler host serves it; it fails to compile if the kit's code and its
	// published types part ways. The hook types come from plugin-api.d.ts, whose hook part is the
	// app's own (plugin-api-build.test.ts); what the kit hands back is held here to what the
	// code returns, field for field, so a field the app adds to a hook log entry is published too.
	const CHECK = resolve(ROOT, 'src/lib/test-kit/__kit-types-check__.ts');
	const CHECK_TEXT = [
		`import type * as Published from '../../../static/plugin-test-kit';`,
		`import { createTestKit, type TestKit, type TestPlugin } from './plugin-test-kit';`,
		`export const asPublished: typeof Published.createTestKit = createTestKit;`,
		`type Equals<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;`,
		`type Expect<T extends true> = T;`,
		`type Report = Awaited<ReturnType<TestKit['fire']>>;`,
		// `id` is the key a stored hook log gives an entry; the kit stores none.
		`export type HookCallIsTheLogEntry = Expect<Equals<Omit<TestKit['calls'][number], 'id'>, Published.HookCall>>;`,
		`export type FireResultIsTheReport = Expect<Equals<Omit<Report, 'calls'>, Omit<Published.FireResult, 'calls'>>>;`,
		`export type InjectedContextIsTheApps = Expect<Equals<NonNullable<Report['injected']>[number], Published.InjectedContext>>;`,
		`export type ToolDecisionIsTheApps = Expect<Equals<NonNullable<Report['decision']>, Published.ToolDecision>>;`,
		`export type LogLineIsTheApps = Expect<Equals<ReturnType<TestPlugin['logs']>[number], Published.PluginLogLine>>;`,
		`export type RegisteredIsTheApps = Expect<Equals<TestPlugin['registered'], Published.Registered>>;`
	].join('\n');
	const CHECK_LINES = CHECK_TEXT.split('\n');

	it('declares the kit as the code implements it, and what it returns field for field, and compiles cleanly', () => {
		const program = compileWithVirtualFile({ name: CHECK, text: CHECK_TEXT }, [CHECK, resolve(ROOT, 'static/plugin-test-kit.d.ts')], { js: false, skipLibCheck: false });
		const problems = ts
			.getPreEmitDiagnostics(program)
			.filter((d) => !d.file || d.file.fileName === CHECK || d.file.fileName.includes('/static/'))
			.map((d) => {
				const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
				if (d.file?.fileName !== CHECK || d.start === undefined) return message;
				return `${CHECK_LINES[d.file.getLineAndCharacterOfPosition(d.start).line]}: ${message}`;
			});
		expect(problems).toEqual([]);
	}, 180_000); // A full type check of the kit with its libraries: minutes on a busy machine.
});
