// Plugins across tabs and in safe mode, with two hosts on one profile database standing in for
// two tabs: a removed plugin's storage takes no write from any tab, a plugin removed and added
// again is restarted in the other tab, and one added in safe mode waits to be enabled.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandInvocation } from '../../commands/command-registry';
import { kvKeys, removePlugin } from '../../db/plugin-verbs';
import { makeHost } from '../../plugins/test-host';
import { confirmAdd } from './add-plugin';
import { PluginHostLoader } from './plugin-host-loader';
import { PluginsState } from './plugins.svelte';

const URL_ = 'https://x.test/notes.js';
const NOTES = `export function register(ctx) {
	const started = Date.now();
	ctx.register_command('note', async (text) => { await ctx.storage.set('note:' + text, text); return 'noted ' + text; });
	ctx.register_command('started', () => String(started));
}`;
const invocation: CommandInvocation = { session_id: 's', session_key: 'k', platform: 'web', source: null };

let name: string;
let tabs: ReturnType<typeof makeHost>[];
const tab = () => {
	const t = makeHost(1000, {}, name);
	t.served[URL_] = { body: NOTES };
	tabs.push(t);
	return t;
};
const stateOf = (t: ReturnType<typeof makeHost>, safeMode = false) => new PluginsState({ db: t.db, host: new PluginHostLoader(async () => t.host), hooks: t.hooks, safeMode });

beforeEach(() => {
	name = `tabs-${crypto.randomUUID()}`;
	tabs = [];
});
afterEach(async () => {
	for (const t of tabs) t.db.close();
	await tabs[0]?.close();
});

describe("a removed plugin's storage", () => {
	it('takes no write from a tab that has not yet heard of the removal', async () => {
		const [a, b] = [tab(), tab()];
		const row = await a.row(URL_);
		// Tab B runs the plugin and has not unloaded it yet when tab A removes it.
		expect((await b.host.load(row)).ok).toBe(true);
		await b.commands.execute('/note before', invocation);
		expect(await kvKeys(b.db, 'notes')).toEqual(['note:before']);

		await removePlugin(a.db, 'notes');
		await expect(b.commands.execute('/note after', invocation)).rejects.toThrow(
			'/note failed: Plugin "notes" was removed; its storage is closed.'
		);
		expect(await kvKeys(a.db, 'notes')).toEqual([]);
	});

	it('takes no write from the old instance once the plugin was removed and added again', async () => {
		const [a, b] = [tab(), tab()];
		const first = await a.row(URL_, { added_at: 1 });
		expect((await b.host.load(first)).ok).toBe(true);
		await removePlugin(a.db, 'notes');
		await a.row(URL_, { added_at: 2 });
		await expect(b.commands.execute('/note stale', invocation)).rejects.toThrow('was removed; its storage is closed.');
		expect(await kvKeys(a.db, 'notes')).toEqual([]);
	});
});

describe('following the plugin list from another tab', () => {
	it('restarts a plugin that was removed and added again, even when no update showed it missing', async () => {
		const [a, b] = [tab(), tab()];
		await a.row(URL_, { added_at: 1 });
		const state = stateOf(b);
		const stop = state.start();
		try {
			await state.ready;
			await expect.poll(() => state.status.get('notes')?.state).toBe('loaded');
			const before = await b.commands.execute('/started', invocation);
			// Removed and added again in one transaction: the other tab only ever sees the new row.
			await a.db.transaction('rw', [a.db.plugins, a.db.plugin_kv, a.db.plugin_log, a.db.plugin_usage], async () => {
				await removePlugin(a.db, 'notes');
				await a.row(URL_, { added_at: 2 });
			});
			await expect.poll(() => b.host.get('notes')?.addedAt).toBe(2);
			await expect.poll(() => state.status.get('notes')?.state).toBe('loaded');
			await b.commands.execute('/note fresh', invocation);
			expect(await kvKeys(a.db, 'notes')).toEqual(['note:fresh']);
			expect((await b.commands.execute('/started', invocation)).output).not.toBe(before.output);
		} finally {
			stop();
		}
	});
});

describe('adding a plugin in safe mode', () => {
	it('stores it switched off, runs nothing, and it runs only once the user enables it', async () => {
		const t = tab();
		const safe = stateOf(t, true);
		const stop = safe.start();
		safe.pending = { url: URL_, pin: null };
		await confirmAdd(safe);
		stop();
		expect(await t.db.plugins.get('notes')).toMatchObject({ enabled: 0 });
		expect(safe.status.get('notes')).toEqual({ state: 'safe' });
		expect(t.host.isLoaded('notes')).toBe(false);
		expect(t.fetchImpl).not.toHaveBeenCalled();
		expect(t.commands.has('note')).toBe(false);

		// The next normal visit keeps it off until the Enabled switch is turned on.
		const normal = stateOf(t);
		const stopNormal = normal.start();
		try {
			await normal.ready;
			expect(normal.status.get('notes')).toEqual({ state: 'disabled' });
			expect(t.host.isLoaded('notes')).toBe(false);
			await normal.setEnabled('notes', true);
			expect(normal.status.get('notes')?.state).toBe('loaded');
			expect(t.commands.has('note')).toBe(true);
		} finally {
			stopNormal();
		}
	});
});
