// The Plugins page's author tools below the UI: a test event reaches one plugin with its
// made-up test session, against a scratch copy of its storage, and says what the app would
// have done; storage and ctx.log lines are followed live;
// a call's details are found by its id in the tab that made it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookLogEntry } from '../../hooks/run-hook';
import { makeHost } from '../../plugins/test-host';
import { createHookLogWriter } from '../../plugins/hook-log-writer';
import { PluginInspector, type LogView, type StorageView } from './plugin-inspector';
import { PluginHostLoader } from './plugin-host-loader';
import { PluginsState } from './plugins.svelte';

const MEMORY = `export function register(ctx) {
	ctx.register_hook('post_compaction', async ({ session_id }) => {
		ctx.log.info('marked', session_id, { at: 1 });
		await ctx.storage.set('pending:' + session_id, { marked: true });
	});
	ctx.register_hook('pre_llm_call', async ({ session_id }) => (await ctx.storage.get('pending:' + session_id)) ? 'Remember the conventions.' : undefined);
	ctx.register_hook('pre_tool_call', ({ tool_name }) => (tool_name === 'rm' ? { block: true, reason: 'never rm' } : { args: { safe: true } }));
}`;
const OTHER = `export function register(ctx) {
	ctx.register_hook('post_compaction', async ({ session_id }) => { await ctx.storage.set('other:' + session_id, 1); });
}`;

let t: ReturnType<typeof makeHost>;
let log: HookLogEntry[];
let inspector: PluginInspector;

beforeEach(async () => {
	log = [];
	t = makeHost(1000, { record: (entry) => log.push(entry) });
	for (const [id, body] of [['memory', MEMORY], ['other', OTHER]]) {
		t.served[`https://x.test/${id}.js`] = { body };
		expect((await t.host.load(await t.row(`https://x.test/${id}.js`))).ok).toBe(true);
	}
	inspector = new PluginInspector({ db: t.db, hooks: t.hooks, scratch: t.host.scratch });
});
afterEach(() => t.close());

/** The next value a live callback receives that passes `check`. */
function next<T>(subscribe: (on: (value: T) => void) => () => void, check: (value: T) => boolean): Promise<T> {
	return new Promise((resolve) => {
		const stop = subscribe((value) => {
			if (!check(value)) return;
			queueMicrotask(() => stop());
			resolve(value);
		});
	});
}

describe('a test event', () => {
	it('is prefilled with every documented field and one made-up session id per plugin, kept until the author changes it', () => {
		const first = JSON.parse(inspector.testPayload('memory', 'post_compaction'));
		const turn = JSON.parse(inspector.testPayload('memory', 'pre_llm_call'));
		const other = JSON.parse(inspector.testPayload('other', 'post_compaction'));
		expect(Object.keys(first).sort()).toEqual(['after_tokens', 'before_tokens', 'facts_kept', 'facts_lost', 'facts_total', 'kind', 'messages_removed', 'old_session_id', 'platform', 'profile', 'reason', 'session_id']);
		expect(first.session_id).toMatch(/^test-[0-9a-f]+$/);
		expect(turn.session_id).toBe(first.session_id);
		expect(other.session_id).not.toBe(first.session_id);
		inspector.setTestSessionId('memory', ' my-session ');
		expect(JSON.parse(inspector.testPayload('memory', 'pre_llm_call')).session_id).toBe('my-session');
		expect(() => inspector.setTestSessionId('memory', '  ')).toThrow('A test session id cannot be empty.');
		expect(inspector.optionalFields('on_session_delete')).toEqual([expect.stringMatching(/^deleted_ids \(string\[\]: .*more than one/)]);
	});

	it('reaches the chosen plugin only, marked as a test', async () => {
		const outcome = await inspector.sendTestEvent('memory', 'post_compaction', inspector.testPayload('memory', 'post_compaction'));
		expect(outcome).toMatchObject({ hook: 'post_compaction', headline: 'Delivered.', notes: [] });
		expect(outcome.calls).toEqual([expect.objectContaining({ outcome: 'ok' })]);
		expect(log.filter((e) => e.hook === 'post_compaction')).toEqual([expect.objectContaining({ plugin_id: 'memory', test: true })]);
		expect(await t.db.plugin_kv.where('plugin_id').equals('other').count()).toBe(0);
	});

	it('says what the app would have done with a collector’s or a directive’s answer', async () => {
		await inspector.sendTestEvent('memory', 'post_compaction', JSON.stringify({ ...JSON.parse(inspector.testPayload('memory', 'post_compaction')), session_id: 's1' }));
		const turn = JSON.stringify({ ...JSON.parse(inspector.testPayload('memory', 'pre_llm_call')), session_id: 's1' });
		expect((await inspector.sendTestEvent('memory', 'pre_llm_call', turn)).headline).toBe('Would add 25 characters of context to the message.');
		const rm = JSON.stringify({ ...JSON.parse(inspector.testPayload('memory', 'pre_tool_call')), tool_name: 'rm' });
		expect((await inspector.sendTestEvent('memory', 'pre_tool_call', rm)).headline).toBe('Would block the tool call: never rm');
		const read = inspector.testPayload('memory', 'pre_tool_call');
		expect((await inspector.sendTestEvent('memory', 'pre_tool_call', read)).headline).toBe('Would run the tool with changed args.');
	});

	it('exercises re-injection with the same test session, against a scratch copy of storage unless the real one is asked for', async () => {
		await t.db.plugin_kv.put({ plugin_id: 'memory', key: 'kept', value: 'real' });
		expect((await inspector.sendTestEvent('memory', 'post_compaction', inspector.testPayload('memory', 'post_compaction'))).headline).toBe('Delivered.');
		// The pre_llm_call of the same test session sees what the post_compaction stored…
		expect((await inspector.sendTestEvent('memory', 'pre_llm_call', inspector.testPayload('memory', 'pre_llm_call'))).headline).toBe(
			'Would add 25 characters of context to the message.'
		);
		// …in the scratch copy: the real storage holds only what it held.
		expect((await t.db.plugin_kv.where('plugin_id').equals('memory').toArray()).map((row) => row.key)).toEqual(['kept']);
		// A new test session starts from a fresh copy of the real storage.
		inspector.setTestSessionId('memory', 'fresh');
		expect((await inspector.sendTestEvent('memory', 'pre_llm_call', inspector.testPayload('memory', 'pre_llm_call'))).headline).toBe('Would add no context.');
		await inspector.sendTestEvent('memory', 'post_compaction', inspector.testPayload('memory', 'post_compaction'), { realStorage: true });
		expect((await t.db.plugin_kv.where('plugin_id').equals('memory').toArray()).map((row) => row.key).sort()).toEqual(['kept', 'pending:fresh']);
	});

	it('names fields the app always sends that are missing, and fields it never sends', async () => {
		const outcome = await inspector.sendTestEvent('memory', 'post_compaction', JSON.stringify({ session_id: 'x', sesion: 'typo' }));
		expect(outcome.notes).toEqual([
			'Missing fields the app always sends: old_session_id, kind, reason, before_tokens, after_tokens, messages_removed, profile, platform, facts_total, facts_kept, facts_lost.',
			'Fields the app never sends: sesion.'
		]);
	});

	it('refuses a payload that is not a JSON object, and a hook the plugin does not have, sending nothing', async () => {
		await expect(inspector.sendTestEvent('memory', 'post_compaction', '{ nope')).rejects.toThrow(/^The payload is not valid JSON: /);
		await expect(inspector.sendTestEvent('memory', 'post_compaction', '[1]')).rejects.toThrow('The payload must be a JSON object of fields.');
		await expect(inspector.sendTestEvent('other', 'pre_llm_call', '{}')).rejects.toThrow('Plugin "other" has no pre_llm_call callback.');
		await expect(inspector.sendTestEvent('memory', 'post_compact', '{}')).rejects.toThrow(/"post_compact" is not one/);
		expect(log.filter((e) => e.hook !== 'register(ctx)')).toEqual([]);
	});
});

describe('the storage and log views', () => {
	it('follow what the plugin stores and logs, as it happens', async () => {
		const empty = await next((on) => inspector.watchStorage('memory', on), () => true);
		expect(empty).toEqual({ total: 0, entries: [] });
		const stored = next<StorageView>((on) => inspector.watchStorage('memory', on), (view) => view.total > 0);
		const logged = next<LogView>((on) => inspector.followLog('memory', on), (view) => view.lines.length > 0);
		await inspector.sendTestEvent('memory', 'post_compaction', JSON.stringify({ session_id: 's9' }), { realStorage: true });
		expect(await stored).toEqual({ total: 1, entries: [{ key: 'pending:s9', value: '{\n  marked: true\n}' }] });
		await t.logWriter.flush();
		expect(await logged).toEqual({ lines: [expect.objectContaining({ level: 'info', text: 'marked s9 { at: 1 }' })], full: false });
	});
});

describe('kept log lines', () => {
	it('survive a new page on the same database, the newest 200 per plugin, and go with the plugin', async () => {
		const chatty = `export function register(ctx) { ctx.register_command('chat', () => { for (let i = 0; i < 100; i++) ctx.log.info('line', i); return 'ok'; }); }`;
		t.served['https://x.test/chatty.js'] = { body: chatty };
		expect((await t.host.load(await t.row('https://x.test/chatty.js'))).ok).toBe(true);
		const invocation = { session_id: 's', session_key: 'k', platform: 'web', source: null };
		// Three rounds of 100 lines, a second apart, all within the log budget: 300 lines kept as the newest 200.
		for (let round = 0; round < 3; round++) {
			if (round) await new Promise((resolve) => setTimeout(resolve, 1100));
			await t.commands.execute('/chat', invocation);
			await t.logWriter.flush();
		}
		// Another page (a reload) on the same database reads them.
		const reloaded = new PluginInspector({ db: t.db, hooks: t.hooks, scratch: t.host.scratch });
		const view = await next<LogView>((on) => reloaded.followLog('chatty', on), () => true);
		expect(view.full).toBe(true);
		expect(view.lines).toHaveLength(200);
		expect(view.lines.at(-1)?.text).toBe('line 99');
		expect(view.lines[0].text).toBe('line 0');
		await (await t.host.get('chatty'))?.dispose();
		const { removePlugin } = await import('../../db/plugin-verbs');
		await removePlugin(t.db, 'chatty');
		expect(await t.db.plugin_log.count()).toBe(0);
	});
});

describe('hook call details', () => {
	it('are kept in memory for the newest calls and never stored with the row', async () => {
		const writer = createHookLogWriter(t.db);
		const state = new PluginsState({ db: t.db, host: new PluginHostLoader(async () => t.host), hooks: t.hooks, safeMode: false, hookDetails: writer.detail });
		writer.record({ at: 1, hook: 'pre_llm_call', plugin_id: 'memory', duration_ms: 1, outcome: 'error', summary: 's', call_id: 'c1', detail: { stack: 'Error: x\n at f' } });
		await writer.flush();
		const [row] = await t.db.hook_log.toArray();
		expect(row).toMatchObject({ call_id: 'c1', outcome: 'error' });
		expect(row).not.toHaveProperty('detail');
		expect(state.hookCallDetail('c1')).toEqual({ stack: 'Error: x\n at f' });
		expect(state.hookCallDetail('missing')).toBeUndefined();
		// The author tools load on demand, once.
		expect(await state.loadInspector()).toBe(await state.loadInspector());
	});
});
