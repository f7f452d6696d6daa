import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kvKeys, removePlugin } from '../db/plugin-verbs';
import { makeHost } from './test-host';

const URL_ = 'https://x.test/keeper.js';
// Hands its ctx to the test, as a timer or a pending callback would keep it.
const KEEPER = `export function register(ctx) { globalThis.__keeper = ctx; }`;
type Ctx = { storage: { get(k: string): Promise<unknown>; set(k: string, v: unknown): Promise<void>; delete(k: string): Promise<void>; keys(): Promise<string[]> } };
const kept = () => (globalThis as unknown as { __keeper: Ctx }).__keeper;
const CLOSED = 'Plugin "keeper" is unloaded; its storage is closed.';

let t: ReturnType<typeof makeHost>;
beforeEach(() => {
	t = makeHost();
	t.served[URL_] = { body: KEEPER };
});
afterEach(() => t.close());

describe('ctx.storage after the plugin is unloaded', () => {
	it('refuses every call, so a late write cannot bring back a removed plugin’s rows', async () => {
		await t.host.load(await t.row(URL_));
		const ctx = kept();
		await ctx.storage.set('notes', { a: 1 });
		expect(await ctx.storage.get('notes')).toEqual({ a: 1 });

		t.host.unload('keeper');
		await removePlugin(t.db, 'keeper');
		await expect(ctx.storage.set('notes', { a: 2 })).rejects.toThrow(CLOSED);
		await expect(ctx.storage.get('notes')).rejects.toThrow(CLOSED);
		await expect(ctx.storage.delete('notes')).rejects.toThrow(CLOSED);
		await expect(ctx.storage.keys()).rejects.toThrow(CLOSED);
		expect(await kvKeys(t.db, 'keeper')).toEqual([]);
	});

	it('stays closed for the old instance after a reload, while the new one can write', async () => {
		await t.host.load(await t.row(URL_));
		const old = kept();
		await t.host.load((await t.db.plugins.get('keeper'))!);
		await expect(old.storage.set('k', 1)).rejects.toThrow(CLOSED);
		await kept().storage.set('k', 2);
		expect(await kept().storage.get('k')).toBe(2);
	});

	it('rejects a bad key instead of throwing', async () => {
		await t.host.load(await t.row(URL_));
		const pending = kept().storage.set('', 1);
		expect(pending).toBeInstanceOf(Promise);
		await expect(pending).rejects.toThrow('Storage keys are non-empty strings.');
	});
});
