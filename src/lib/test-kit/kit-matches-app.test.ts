// The published test kit (static/plugin-test-kit.js, as authors get it) against the app: one
// table of plugins and events, run once through the app's plugin host (fetched source, stored
// storage, notify/collect/decide) and once through the kit. Every result, every logged call and
// the storage each plugin is left with must be the same.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { kvGet, kvKeys } from '../db/plugin-verbs';
import { HOOK_KINDS, type CollectorHookName, type DirectiveHookName, type HookName, type HookPayload, type ObserverHookName } from '../hooks/hook-map';
import type { HookLogEntry } from '../hooks/run-hook';
import { samplePayload } from '../hooks/sample-payloads';
import { importFromDataUrl } from '../plugins/import-plugin-module';
import { makeHost } from '../plugins/test-host';
import { createTestKit } from '../../../static/plugin-test-kit.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const example = (name: string) => readFileSync(resolve(ROOT, `static/plugins/${name}.js`), 'utf8');

type Event = [hook: string, fields?: Record<string, unknown>];

interface Case {
	name: string;
	/** Plugin id → source, in load order. */
	plugins: Record<string, string>;
	events: Event[];
	/** Hook timeout in seconds (default 10: generous, so a loaded machine cannot cut a callback off). */
	timeout?: number;
}

const CASES: Case[] = [
	{
		name: 'conventions: re-injects after a compaction until a turn completes, again on Retry, not on the next turn',
		plugins: { conventions: example('conventions') },
		events: [
			['pre_llm_call', { session_id: 's1' }],
			['post_compaction', { session_id: 's1' }],
			['pre_llm_call', { session_id: 's1' }],
			['pre_llm_call', { session_id: 's1' }],
			['post_llm_call', { session_id: 's1' }],
			['pre_llm_call', { session_id: 's1', user_message: 'next', conversation_history: [] }],
			['post_compaction', { session_id: 's2' }],
			['on_session_delete', { session_id: 's2', reason: 'archive' }],
			['post_compaction', { session_id: 's3' }],
			['on_session_delete', { session_id: 's3', deleted_ids: ['s3', 's4'] }]
		]
	},
	{
		name: 'session-index: a sidecar per session, dropped for every deleted id, flagged on archive',
		plugins: { 'session-index': example('session-index') },
		events: [
			['on_session_start', { session_id: 'a' }],
			['post_llm_call', { session_id: 'a', user_message: 'Where are the logs?' }],
			['post_llm_call', { session_id: 'b' }],
			['post_llm_call', { session_id: 'c' }],
			['on_session_delete', { session_id: 'a', deleted_ids: ['a', 'b'] }],
			['on_session_delete', { session_id: 'c', reason: 'archive' }]
		]
	},
	{
		name: 'collectors: joined in load order; unusable returns add nothing and warn; throws are skipped',
		plugins: {
			first: `export function register(ctx) { ctx.register_hook('pre_llm_call', () => ({ context: 'one' })); }`,
			numbers: `export function register(ctx) { ctx.register_hook('pre_llm_call', () => ({ context: 42 })); }`,
			crash: `export function register(ctx) { ctx.register_hook('pre_llm_call', () => { throw new Error('no'); }); }`,
			last: `export function register(ctx) { ctx.register_hook('pre_llm_call', async ({ user_message }) => '  ' + user_message.length + ' chars  '); }`
		},
		events: [['pre_llm_call', { user_message: 'hello' }]]
	},
	{
		name: 'directives: args rewrites chain, the first block wins, a throw or bad args block',
		plugins: {
			rewrite: `export function register(ctx) { ctx.register_hook('pre_tool_call', ({ tool_name, args }) => tool_name === 'read_file' ? { args: { ...args, path: '/safe' + args.path } } : undefined); }`,
			guard: `export function register(ctx) { ctx.register_hook('pre_tool_call', ({ args, tool_name }) => tool_name === 'rm' || !String(args.path ?? '').startsWith('/safe') ? { block: true, reason: 'outside /safe' } : { block: 'maybe' }); }`,
			crashy: `export function register(ctx) { ctx.register_hook('pre_tool_call', ({ tool_name }) => { if (tool_name === 'boom') throw new Error('guard crashed'); if (tool_name === 'odd') return { args: [1] }; }); }`
		},
		events: [
			['pre_tool_call', { tool_name: 'read_file', args: { path: '/a.txt' } }],
			['pre_tool_call', { tool_name: 'rm', args: { path: '/safe/x' } }],
			['pre_tool_call', { tool_name: 'boom', args: { path: '/safe/x' } }],
			['pre_tool_call', { tool_name: 'odd', args: { path: '/safe/x' } }]
		]
	},
	{
		name: 'payloads are frozen copies, and observers see events in order',
		plugins: {
			mutator: `export function register(ctx) {
				ctx.register_hook('post_compaction', async (payload) => {
					let changed = true;
					try { payload.session_id = 'changed'; } catch { changed = false; }
					const seen = (await ctx.storage.get('seen')) ?? [];
					await ctx.storage.set('seen', [...seen, payload.session_id + (changed ? ' changed' : ' frozen') + (Object.isFrozen(payload) ? '' : ' open')]);
				});
			}`
		},
		events: [
			['post_compaction', { session_id: 'x' }],
			['post_compaction', { session_id: 'y' }]
		]
	},
	{
		name: 'a callback past the timeout is cut off, then skipped',
		timeout: 0.05,
		plugins: { slow: `export function register(ctx) { ctx.register_hook('pre_llm_call', () => new Promise(() => {})); ctx.register_hook('post_llm_call', () => {}); }` },
		events: [['pre_llm_call'], ['pre_llm_call'], ['post_llm_call']]
	},
	{
		name: 'a misspelt hook name is refused at registration with the same suggestion',
		plugins: {
			typo: `export function register(ctx) { ctx.register_hook('post_compact', () => {}); }`,
			fine: `export function register(ctx) { ctx.register_hook('post_compaction', () => {}); }`
		},
		events: [['post_compaction']]
	}
];

/** What a run leaves for comparison: each event's result, each call, each plugin's storage and load outcome. */
interface Observed {
	loads: Record<string, string>;
	results: unknown[];
	calls: unknown[];
	storage: Record<string, Record<string, unknown>>;
}

// Examples store random marks and timestamps: the same in shape, never in value.
const normalize = (value: unknown) =>
	JSON.parse(
		JSON.stringify(value)
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
			.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<date>')
	);

const comparable = (entry: HookLogEntry) => {
	const { plugin_id, hook, outcome, result, warning, error } = entry;
	return { plugin_id, hook, outcome, result, warning, error };
};

async function runInApp(c: Case): Promise<Observed> {
	const calls: HookLogEntry[] = [];
	const t = makeHost((c.timeout ?? 10) * 1000, { record: (entry) => calls.push(entry) });
	onTestFinished(() => t.close());
	const loads: Record<string, string> = {};
	for (const [id, source] of Object.entries(c.plugins)) {
		const url = `https://plugins.test/${id}.js`;
		t.served[url] = { body: source };
		const outcome = await t.host.load(await t.row(url));
		loads[id] = outcome.ok ? 'loaded' : outcome.error;
	}
	t.hooks.setPluginOrder(Object.keys(c.plugins));
	const results: unknown[] = [];
	for (const [hook, fields] of c.events) {
		const name = hook as HookName;
		const payload = { ...samplePayload(name), ...fields };
		const kind = HOOK_KINDS[name];
		// The app's own entry points for each kind, as the turn loop and sessions call them.
		if (kind === 'observer') results.push(await t.hooks.notify(name as ObserverHookName, payload as HookPayload<ObserverHookName>));
		else if (kind === 'collector') results.push(await t.hooks.collect(name as CollectorHookName, payload as HookPayload<CollectorHookName>));
		else results.push(await t.hooks.decide(name as DirectiveHookName, payload as HookPayload<DirectiveHookName>));
	}
	const storage: Observed['storage'] = {};
	for (const id of Object.keys(c.plugins)) {
		const keys = await kvKeys(t.db, id);
		storage[id] = Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await kvGet(t.db, id, key)])));
	}
	return { loads, results, calls: calls.map(comparable), storage: normalize(storage) };
}

async function runInKit(c: Case): Promise<Observed> {
	// The cases cause failures on purpose.
	const kit = createTestKit({ timeoutSeconds: c.timeout ?? 10, quiet: true });
	const loads: Record<string, string> = {};
	const loaded: Record<string, { stored(): Record<string, unknown> }> = {};
	for (const [id, source] of Object.entries(c.plugins)) {
		try {
			loaded[id] = await kit.load(await importFromDataUrl(source, id), { plugin_id: id });
			loads[id] = 'loaded';
		} catch (error) {
			loads[id] = (error as Error).message;
		}
	}
	const results: unknown[] = [];
	for (const [hook, fields] of c.events) {
		const report = await kit.fire(hook as HookName, fields);
		results.push(report.kind === 'observer' ? undefined : report.kind === 'collector' ? report.injected : report.decision);
	}
	const storage: Observed['storage'] = {};
	for (const id of Object.keys(c.plugins)) storage[id] = loaded[id]?.stored() ?? {};
	return { loads, results, calls: kit.calls.map((call) => comparable(call as HookLogEntry)), storage: normalize(storage) };
}

describe('the published test kit gives the app’s results', () => {
	it.each(CASES)('$name', async (c) => {
		const app = await runInApp(c);
		const kit = await runInKit(c);
		expect(kit).toEqual(app);
		// The table means something: each case made calls, and produced what its name says.
		expect(app.calls.length).toBeGreaterThan(0);
	});

	it('checks what the table claims, so a kit that agreed with a broken app would still fail', async () => {
		const outcomes = (run: Observed) => (run.calls as HookLogEntry[]).filter((c) => c.hook !== 'register(ctx)').map((c) => c.outcome);
		const [conventions, index, collectors, directives, frozen, timeout, typo] = await Promise.all(CASES.map(runInApp));
		expect(conventions.results.slice(0, 6).map((r) => (Array.isArray(r) ? r.length : r))).toEqual([0, undefined, 1, 1, undefined, 0]);
		expect(Object.keys(conventions.storage.conventions)).toEqual(['pending:s2']);
		expect(index.storage['session-index']).toEqual({ 'session:c': expect.objectContaining({ archived: true, turns: 1 }) });
		expect(collectors.results[0]).toEqual([
			{ plugin_id: 'first', text: 'one' },
			{ plugin_id: 'last', text: '5 chars' }
		]);
		expect(outcomes(collectors)).toEqual(['ok', 'warning', 'error', 'ok']);
		expect(directives.results).toEqual([
			{ block: false, args: { path: '/safe/a.txt' }, rewritten_by: ['rewrite'] },
			{ block: true, reason: 'outside /safe', plugin_id: 'guard' },
			expect.objectContaining({ block: true, plugin_id: 'crashy' }),
			expect.objectContaining({ block: true, plugin_id: 'crashy' })
		]);
		expect(frozen.storage.mutator).toEqual({ seen: ['x frozen', 'y frozen'] });
		expect(outcomes(timeout)).toEqual(['timeout', 'skipped', 'ok']);
		expect(typo.loads.typo).toMatch(/^register\(ctx\) threw: Unknown hook "post_compact"\..*Did you mean "post_compaction"\?$/);
		expect(typo.loads.fine).toBe('loaded');
	});
});
