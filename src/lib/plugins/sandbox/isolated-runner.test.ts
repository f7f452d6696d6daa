// Plugins behind the isolation boundary (here a real MessagePort, as in the app's sandboxed
// worker): the same ctx API, storage served by the page with its errors as rejected promises,
// registrations at any time, has_plugin kept current, values crossing as copies, and a plugin
// whose code stops answering is stopped while one that only waits is not.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandInvocation } from '../../commands/command-registry';
import { kvGet } from '../../db/plugin-verbs';
import type { HookLogEntry } from '../../hooks/run-hook';
import type { PluginRunner } from '../plugin-runner';
import { makeHost, testRunner } from '../test-host';
import { PluginHost } from '../plugin-host';

const invocation: CommandInvocation = { session_id: 's-1', session_key: 'web:default:s-1', platform: 'web', source: null };

const STORAGE = `
export function register(ctx) {
	ctx.register_command('store', async () => {
		await ctx.storage.set('note', { text: 'kept', at: [1, 2] });
		await ctx.storage.set('other', 1);
		const read = await ctx.storage.get('note');
		await ctx.storage.delete('other');
		const keys = await ctx.storage.keys('no');
		const refusals = [];
		for (const attempt of [() => ctx.storage.get(''), () => ctx.storage.set('f', () => 1)]) {
			try { await attempt(); refusals.push('accepted'); } catch (error) { refusals.push(error instanceof Error ? error.message : String(error)); }
		}
		return JSON.stringify({ read, keys, missing: await ctx.storage.get('other') ?? null, refusals });
	});
}`;

const DYNAMIC = `
let undo = null;
export function register(ctx) {
	ctx.register_command('on', () => { undo = ctx.register_hook('pre_llm_call', () => ({ context: 'late hook' })); return 'on'; });
	ctx.register_command('off', () => { undo?.(); return 'off'; });
	ctx.register_command('peers', () => String(ctx.has_plugin('other')));
	ctx.register_hook('post_compaction', () => ({ anything: true }));
	ctx.register_hook('pre_tool_call', () => ({ args: { fn: () => 1 } }));
	ctx.register_hook('on_session_start', () => { throw new TypeError('bad start'); });
	ctx.register_hook('on_session_end', (payload) => {
		try { payload.session_id = 'changed'; ctx.log.info('payload writable'); } catch { ctx.log.info('payload frozen'); }
	});
	try { ctx.register_hook('post_compact', () => {}); } catch (error) { ctx.log.warn('refused:', error.message); }
}`;

const PAYLOAD = {
	session_id: 's', session_key: 'k', user_message: 'hi', conversation_history: [], is_first_turn: false, model: 'm', platform: 'web', profile: 'default'
};

let log: HookLogEntry[];
let t: ReturnType<typeof makeHost>;

beforeEach(() => {
	log = [];
	// A callback's time limit far above what these calls take, however busy the machine: none of them is about a timeout.
	t = makeHost(5_000, { record: (entry) => log.push(entry) }, undefined, 'isolated');
});
afterEach(() => t.close());

async function load(url: string, body: string) {
	t.served[url] = { body };
	const outcome = await t.host.load(await t.row(url));
	if (!outcome.ok) throw new Error(outcome.error);
	return outcome.plugin;
}

describe('isolated plugins', () => {
	it('reach their own storage through the page, and its refusals come back as rejected promises', async () => {
		const plugin = await load('https://x.test/store.js', STORAGE);
		expect(plugin.isolated).toBe(true);
		const { output } = await t.commands.execute('/store', invocation);
		expect(JSON.parse(String(output))).toEqual({
			read: { text: 'kept', at: [1, 2] },
			keys: ['note'],
			missing: null,
			refusals: ['Storage keys are non-empty strings.', expect.stringMatching(/could not be cloned|DataCloneError|not be cloned/)]
		});
		// Stored in the page's database, under this plugin.
		expect(await kvGet(t.db, 'store', 'note')).toEqual({ text: 'kept', at: [1, 2] });
	});

	it('see a full disk as a rejected promise they can catch, and go on', async () => {
		await load('https://x.test/full.js', `export function register(ctx) {
			ctx.register_command('save', async (args) => {
				try { await ctx.storage.set('draft', args); return 'saved'; }
				catch (error) { return 'not saved: ' + error.name + ': ' + error.message; }
			});
		}`);
		// The broker serves the plugin's storage, on its own connection.
		const put = vi.spyOn(t.brokerDb()!.plugin_kv, 'put').mockRejectedValueOnce(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
		expect((await t.commands.execute('/save one', invocation)).output).toMatch(/^not saved: QuotaExceededError: .*quota/);
		put.mockRestore();
		expect((await t.commands.execute('/save two', invocation)).output).toBe('saved');
		expect(await kvGet(t.db, 'full', 'draft')).toBe('two');
	});

	it('get a pre_llm_call only after the post_compaction raised before it, however slow that one is', async () => {
		await load('https://x.test/memory.js', `export function register(ctx) {
			ctx.register_hook('post_compaction', async ({ session_id }) => {
				await new Promise((resolve) => setTimeout(resolve, 50));
				await ctx.storage.set('pending:' + session_id, true);
			});
			ctx.register_hook('pre_llm_call', async ({ session_id }) => {
				if (!(await ctx.storage.get('pending:' + session_id))) return;
				await ctx.storage.delete('pending:' + session_id);
				return { context: 'remembered ' + session_id };
			});
		}`);
		void t.hooks.notify('post_compaction', { session_id: 's', platform: 'web', profile: 'default', kind: 'summarize', reason: 'manual' } as never);
		expect(await t.hooks.collect('pre_llm_call', PAYLOAD)).toEqual([{ plugin_id: 'memory', text: 'remembered s' }]);
		expect(await t.hooks.collect('pre_llm_call', PAYLOAD)).toEqual([]);
	});

	it('register and unregister at any time, learn of other plugins, and say what is wrong with a value', async () => {
		await load('https://x.test/dyn.js', DYNAMIC);
		expect(t.host.logBook.lines('dyn').map((line) => line.text)).toEqual([expect.stringContaining('refused: Unknown hook "post_compact"')]);
		expect((await t.commands.execute('/peers', invocation)).output).toBe('false');
		await load('https://x.test/other.js', 'export function register(ctx) { ctx.register_command("x", () => "x"); }');
		await expect.poll(async () => (await t.commands.execute('/peers', invocation)).output).toBe('true');

		expect(await t.hooks.collect('pre_llm_call', PAYLOAD)).toEqual([]);
		await t.commands.execute('/on', invocation);
		await expect.poll(() => t.hooks.collect('pre_llm_call', PAYLOAD)).toEqual([{ plugin_id: 'dyn', text: 'late hook' }]);
		await t.commands.execute('/off', invocation);
		await expect.poll(() => t.hooks.listRegistrations().filter((r) => r.hook === 'pre_llm_call')).toEqual([]);

		await t.hooks.notify('post_compaction', { session_id: 's', platform: 'web', profile: 'default', kind: 'summarize', reason: 'manual' } as never);
		await t.hooks.settled();
		expect(log.find((entry) => entry.hook === 'post_compaction')?.result).toBe("returned an object; ignored (an observer's return value is not used)");
		const decision = await t.hooks.decide('pre_tool_call', { session_id: 's', tool_name: 'x', args: {}, platform: 'web', profile: 'default' } as never);
		expect(decision.block).toBe(true);
		expect(log.find((entry) => entry.hook === 'pre_tool_call')?.error).toContain('returned a value that is not plain data');
		await t.hooks.notify('on_session_start', { session_id: 's', platform: 'web', profile: 'default' } as never);
		await t.hooks.settled();
		// Payloads are frozen in the plugin's context, as in the page.
		await t.hooks.notify('on_session_end', { session_id: 's', session_key: 'k', end_reason: 'user_exit', platform: 'web' } as never);
		await t.hooks.settled();
		// ctx.log lines reach the page a moment after the callback returned.
		await expect.poll(() => t.host.logBook.lines('dyn').map((line) => line.text)).toContain('payload frozen');
		expect(t.host.logBook.lines('dyn').map((line) => line.text)).not.toContain('payload writable');
		const failed = log.find((entry) => entry.hook === 'on_session_start');
		expect(failed?.error).toBe('bad start');
		expect(failed?.detail?.stack).toContain('TypeError: bad start');
	});
});

describe('a plugin stopped while a call waits on it', () => {
	it('fails that call at once, not at its timeout', async () => {
		const slow = makeHost(60_000, {}, undefined, 'isolated');
		try {
			slow.served['https://x.test/wait.js'] = { body: 'export function register(ctx) { ctx.register_command("wait", () => new Promise(() => {})); }' };
			expect((await slow.host.load(await slow.row('https://x.test/wait.js'))).ok).toBe(true);
			const waiting = slow.commands.execute('/wait', invocation);
			await new Promise((resolve) => setTimeout(resolve, 20));
			const stoppedAt = Date.now();
			slow.host.unload('wait');
			await expect(waiting).rejects.toThrow('The plugin was stopped (disabled, reloaded or removed) before it answered.');
			expect(Date.now() - stoppedAt).toBeLessThan(1_000);
		} finally {
			await slow.close();
		}
	});
});

describe('a plugin whose call timed out', () => {
	function runnerAnswering(answers: () => boolean): PluginRunner {
		const { runner: inner } = testRunner('isolated', t.db.name, t.host.logBook);
		return {
			async start(source, url, signal) {
				// The real plugin behind a real port; only whether its code answers is the test's.
				const started = await inner.start(source, url, signal);
				return { ...started, responsive: async () => answers() };
			}
		};
	}

	it('is stopped, with everything it registered, when its code no longer answers', async () => {
		const stopped: Array<[string, string]> = [];
		let answers = true;
		const host = new PluginHost({
			db: t.db, hooks: t.hooks, commands: t.commands, tools: t.tools, timeoutMs: () => 30_000, fetchImpl: t.fetchImpl,
			runner: runnerAnswering(() => answers), onStopped: (id, reason) => stopped.push([id, reason])
		});
		t.served['https://x.test/spin.js'] = { body: 'export function register(ctx) { ctx.register_hook("pre_llm_call", () => "x"); }' };
		expect((await host.load(await t.row('https://x.test/spin.js'))).ok).toBe(true);

		// Only waiting (a request, a timer): left alone, the 60 s skip covers it.
		await host.checkResponsive('spin', 'pre_llm_call');
		expect(host.isLoaded('spin')).toBe(true);
		expect(stopped).toEqual([]);

		answers = false;
		await host.checkResponsive('spin', 'pre_llm_call');
		expect(host.isLoaded('spin')).toBe(false);
		expect(t.hooks.listRegistrations()).toEqual([]);
		expect(stopped).toEqual([['spin', expect.stringContaining('Stopped: its pre_llm_call callback did not answer within 30 s')]]);
	});
});
