// What one plugin may use of the page, through the app's plugin host: log lines a second,
// storage bytes, registrations, the size of a returned value; and what becomes of a plugin
// whose context posts hostile messages, floods the page or stops answering: its own row says
// why, the page's objects are unchanged, and every other plugin keeps working.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandInvocation } from '../../commands/command-registry';
import { kvGet } from '../../db/plugin-verbs';
import { LOG_BURST, MAX_PENDING_REQUESTS, MAX_REGISTRATIONS } from '../plugin-budgets';
import { PluginHost } from '../plugin-host';
import type { Watchdog } from '../broker/response-watch';
import { INBOX_LIMITS, InboxScheduler } from '../broker/inbox-scheduler';
import { isolatedTestRunner, makeHost, RUNNER_KINDS, testRunner } from '../test-host';

const invocation: CommandInvocation = { session_id: 's-1', session_key: 'web:default:s-1', platform: 'web', source: null };

let t: ReturnType<typeof makeHost>;
beforeEach(() => {
	t = makeHost(2_000);
});
afterEach(async () => {
	await t.close();
	delete (Object.prototype as Record<string, unknown>).polluted;
});

/** A host whose isolated plugins run behind a real port; `contexts` collects each context's end, for posting on as the plugin could. */
const QUIET: Watchdog = { pingEveryMs: 60_000, stuckAfterMs: 600_000, busyWindowMs: 600_000, busyMedianMs: 600_000 };

function hostileHost(watchdog: Partial<Watchdog> = {}, inboxes?: InboxScheduler) {
	const contexts: MessagePort[] = [];
	const stopped: Array<[string, string]> = [];
	const host = new PluginHost({
		db: t.db, hooks: t.hooks, commands: t.commands, tools: t.tools, timeoutMs: () => 2_000, fetchImpl: t.fetchImpl,
		...isolatedTestRunner(t.db.name, { log: t.host.logBook, watchdog: { ...QUIET, ...watchdog }, inboxes }, (port) => contexts.push(port)),
		onStopped: (id, reason) => stopped.push([id, reason]),
		logger: { info: () => {}, warn: () => {}, error: () => {} }
	});
	hosts.push(host);
	return { host, contexts, stopped };
}

const hosts: PluginHost[] = [];
afterEach(() => {
	for (const host of hosts.splice(0)) host.close();
});

async function load(host: PluginHost, url: string, body: string) {
	t.served[url] = { body };
	const outcome = await host.load(await t.row(url));
	if (!outcome.ok) throw new Error(outcome.error);
	return outcome.plugin;
}

const ECHO = `export function register(ctx) {
	ctx.register_command('echo', (args) => 'echo ' + args);
	ctx.register_command('save', async (args) => { await ctx.storage.set('note', args); return 'saved'; });
}`;

describe('a hostile plugin context', () => {
	it('changes nothing in the page by raw messages on its own port, and its commands keep working', async () => {
		const { host, contexts } = hostileHost();
		await load(host, 'https://x.test/echo.js', ECHO);
		const context = contexts[0];
		const { port1: smuggled } = new MessageChannel();
		context.postMessage({ id: 'a', type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: 'yes' } });
		context.postMessage({ id: 'b', type: 'APPLY', path: ['__proto__', '__defineSetter__'], argumentList: [{ type: 'RAW', value: 'authorization' }, { type: 'HANDLER', name: 'proxy', value: smuggled }] }, [smuggled]);
		// Its own storage is all it can write, whatever plugin id it names.
		context.postMessage({ t: 'storage', id: 900, op: 'set', key: 'forged', value: 'mine', plugin_id: 'other', pluginId: 'other' });
		context.postMessage({ t: 'storage', id: 901, op: 'set', key: 'proto', value: JSON.parse('{"__proto__": {"polluted": "yes"}}') });
		await vi.waitFor(async () => expect(await kvGet(t.db, 'echo', 'forged')).toBe('mine'));
		expect(await kvGet(t.db, 'other', 'forged')).toBeUndefined();
		expect(await kvGet(t.db, 'echo', 'proto')).toBeUndefined();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getOwnPropertyDescriptor(Object.prototype, 'authorization')).toBeUndefined();
		await vi.waitFor(() => expect(host.budgets.usage('echo').refused).toBe(3));
		expect((await t.commands.execute('/echo still here', invocation)).output).toBe('echo still here');
	});

	it('is stopped when it floods the page, and its row says why; another plugin goes on', async () => {
		const { host, contexts, stopped } = hostileHost();
		await load(host, 'https://x.test/echo.js', ECHO);
		await load(host, 'https://x.test/flood.js', 'export function register(ctx) { ctx.register_command("flood", () => "x"); }');
		for (let i = 0; i < 2_100; i++) contexts[1].postMessage({ t: 'log', level: 'info', args: ['spam'], dropped: 0 });
		await vi.waitFor(() => expect(stopped).toEqual([['flood', expect.stringContaining('it sent the page more than 2,000 messages in one second')]]));
		expect(host.isLoaded('flood')).toBe(false);
		expect(t.commands.list().map((c) => c.name)).not.toContain('flood');
		expect((await t.commands.execute('/echo ok', invocation)).output).toBe('echo ok');
		// Past the log budget, lines were dropped and counted, not kept.
		expect(t.host.logBook.lines('flood').length).toBeLessThanOrEqual(LOG_BURST);
	});

	it('is stopped when it sends a message over the size limit', async () => {
		const { host, contexts, stopped } = hostileHost();
		await load(host, 'https://x.test/big.js', ECHO);
		contexts[0].postMessage({ t: 'storage', id: 5, op: 'set', key: 'k', value: 'x'.repeat(3_000_000) });
		await vi.waitFor(() => expect(stopped).toEqual([['big', expect.stringContaining('a message over 1.1 MB')]]));
		expect(await kvGet(t.db, 'big', 'k')).toBeUndefined();
	});

	it('is stopped when it stops answering the watchdog outside any call', async () => {
		const { host, contexts, stopped } = hostileHost({ pingEveryMs: 10, stuckAfterMs: 50 });
		await load(host, 'https://x.test/quiet.js', ECHO);
		// A context that no longer reads its port: as a loop in a timer, or a crash, leaves it.
		contexts[0].onmessage = null;
		await vi.waitFor(() => expect(stopped).toEqual([['quiet', expect.stringContaining('its code stopped answering for 0.05 s')]]));
		expect(host.isLoaded('quiet')).toBe(false);
	});

	it('has its storage calls refused past the bytes-a-second budget, overwrites counted, and its row counts them', async () => {
		const { host } = hostileHost();
		await load(host, 'https://x.test/writer.js', `export function register(ctx) {
			ctx.register_command('rewrite', async () => {
				const value = 'x'.repeat(480 * 1024);
				let refused = 0;
				let last = '';
				for (let i = 0; i < 20; i++) {
					try { await ctx.storage.set('big-' + (i % 3), value); } catch (error) { refused++; last = error.message; }
				}
				return JSON.stringify({ refused, last });
			});
		}`);
		const { refused, last } = JSON.parse(String((await t.commands.execute('/rewrite', invocation)).output));
		// 8 MB of burst takes eight of the twenty 960 KB writes; the rest come too fast.
		expect(refused).toBeGreaterThanOrEqual(10);
		expect(last).toMatch(/^Plugin "writer" read and wrote more than 1 MB a second of its storage, so this call was refused/);
		await vi.waitFor(() => expect(host.budgets.usage('writer').storageRefused).toBe(refused));
		// Overwriting three keys never fills the storage: only the rate refused them.
		expect((await t.db.plugin_usage.get('writer'))?.storage_bytes).toBeLessThan(3 * 1024 * 1024);
	});

	it('waits behind its own messages past its bytes budget, and is the one stopped for it; a plugin beside it keeps answering at once', async () => {
		// 20 KB a second read from each plugin; checks every 20 ms, stuck after 0.3 s.
		const inboxes = new InboxScheduler({ ...INBOX_LIMITS, bytesPerSecond: 20_000, bytesBurst: 40_000 });
		const { host, contexts, stopped } = hostileHost({ pingEveryMs: 20, stuckAfterMs: 300, busyWindowMs: 1_000, busyMedianMs: 100 }, inboxes);
		await load(host, 'https://x.test/calm.js', ECHO);
		await load(host, 'https://x.test/flood.js', 'export function register(ctx) { ctx.register_command("flood", () => "x"); }');
		// 4 KB log lines, 500 a second: 2 MB a second, well under the count that stops a plugin at once.
		const line = { t: 'log', level: 'info', args: ['x'.repeat(2_000)], dropped: 0 };
		const flooding = setInterval(() => {
			for (let i = 0; i < 5; i++) contexts[1].postMessage(line);
		}, 10);
		try {
			await vi.waitFor(() => expect(stopped).toEqual([['flood', expect.stringContaining('it sent the app more than the 20 KB a second of messages read from one plugin')]]), { timeout: 10_000 });
			expect(stopped[0][1]).toMatch(/waited \d+ s behind its own messages|behind its own messages \(the median wait/);
		} finally {
			clearInterval(flooding);
		}
		expect(host.isLoaded('calm')).toBe(true);
		expect(host.budgets.usage('flood').held).toBeGreaterThan(0);
		expect(host.budgets.usage('calm')).toEqual(expect.objectContaining({ held: 0, dropped: 0 }));
		const started = performance.now();
		expect((await t.commands.execute('/echo still here', invocation)).output).toBe('echo still here');
		expect(performance.now() - started).toBeLessThan(1_000);
	});

	it('has storage calls past 64 waiting refused at its line, so no more than 64 of them ever cross to the app', async () => {
		const { host, contexts } = hostileHost();
		await load(host, 'https://x.test/burst.js', `export function register(ctx) {
			ctx.register_command('burst', async () => {
				const calls = Array.from({ length: 250 }, (_, i) => ctx.storage.set('k' + (i % 4), 'x'.repeat(1000)));
				const settled = await Promise.allSettled(calls);
				const refused = settled.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason.message);
				return JSON.stringify({ refused: refused.length, first: refused[0] });
			});
		}`);
		// What the app answers the context's own calls, counted on the context's end of its channel.
		let answered = 0;
		contexts[0].addEventListener('message', (event) => void (event.data?.t === 'answer' && answered++));
		const { refused, first } = JSON.parse(String((await t.commands.execute('/burst', invocation)).output));
		expect(refused).toBe(250 - MAX_PENDING_REQUESTS);
		expect(first).toBe(`Too many calls waiting for the page at once (${MAX_PENDING_REQUESTS}); await earlier ones first.`);
		expect(answered).toBe(MAX_PENDING_REQUESTS);
	});

	it('is left alone by the watchdog while it answers', async () => {
		const { host, stopped } = hostileHost({ pingEveryMs: 10, stuckAfterMs: 30 });
		await load(host, 'https://x.test/calm.js', ECHO);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(stopped).toEqual([]);
		expect(host.isLoaded('calm')).toBe(true);
		host.unload('calm');
	});
});

describe.each(RUNNER_KINDS)('budgets of a plugin (%s)', (kind) => {
	beforeEach(async () => {
		await t.close();
		t = makeHost(2_000, {}, undefined, kind);
	});

	it('keeps a burst of log lines and drops and counts the rest', async () => {
		await load(t.host, 'https://x.test/chatty.js', `export function register(ctx) {
			ctx.register_command('chat', () => { for (let i = 0; i < 1000; i++) ctx.log.info('line ' + i); return 'done'; });
		}`);
		expect((await t.commands.execute('/chat', invocation)).output).toBe('done');
		// The burst goes through and the rest is dropped, but for the few lines a slow machine's
		// loop earns back meanwhile (50 a second).
		await vi.waitFor(() => expect(t.host.budgets.usage('chatty').logDropped).toBeGreaterThan(1000 - LOG_BURST - 10), { timeout: 3000 });
		expect(t.host.budgets.usage('chatty').logDropped).toBeLessThanOrEqual(1000 - LOG_BURST);
		// The log book keeps its own newest 200 of what was allowed through.
		expect(t.host.logBook.lines('chatty').map((line) => line.text)).toContain(`line ${LOG_BURST - 1}`);
	});

	it(`refuses more than ${MAX_REGISTRATIONS} registrations`, async () => {
		t.served['https://x.test/many.js'] = { body: `export function register(ctx) { for (let i = 0; i < ${MAX_REGISTRATIONS + 1}; i++) ctx.register_command('c' + i, () => i); }` };
		const outcome = await t.host.load(await t.row('https://x.test/many.js'));
		expect(outcome.ok).toBe(false);
		expect(!outcome.ok && outcome.error).toMatch(/already has 100 hooks, commands and tools registered/);
		expect(t.commands.list().filter((c) => c.name.startsWith('c'))).toEqual([]);
	});

	it('refuses a returned value over 1 MB', async () => {
		await load(t.host, 'https://x.test/huge.js', `export function register(ctx) {
			ctx.register_command('huge', () => 'x'.repeat(600_000));
			ctx.register_command('fine', () => 'x'.repeat(1_000));
		}`);
		await expect(t.commands.execute('/huge', invocation)).rejects.toThrow(/over 1 MB/);
		expect((await t.commands.execute('/fine', invocation)).output).toHaveLength(1_000);
	});
});

describe.each(RUNNER_KINDS)('storage budget (%s)', (kind) => {
	it('refuses a write past the budget with a message that says so, and counts what the plugin holds', async () => {
		await t.close();
		t = makeHost(2_000, {}, undefined, kind);
		const host = new PluginHost({
			db: t.db, hooks: t.hooks, commands: t.commands, tools: t.tools, timeoutMs: () => 2_000, fetchImpl: t.fetchImpl,
			...testRunner(kind, t.db.name, t.host.logBook, { storageBudget: () => 100_000 }), storageBudget: () => 100_000
		});
		hosts.push(host);
		await load(host, 'https://x.test/filler.js', `export function register(ctx) {
			ctx.register_command('fill', async (n) => {
				try { await ctx.storage.set('k' + n, 'x'.repeat(20_000)); return 'stored'; }
				catch (error) { return error.name + ': ' + error.message; }
			});
			ctx.register_command('drop', async (n) => { await ctx.storage.delete('k' + n); return 'dropped'; });
			ctx.register_command('one', async () => {
				try { await ctx.storage.set('one', 'x'.repeat(600_000)); return 'stored'; }
				catch (error) { return error.name + ': ' + error.message; }
			});
		}`);
		const outputs: string[] = [];
		for (let n = 0; n < 3; n++) outputs.push(String((await t.commands.execute(`/fill ${n}`, invocation)).output));
		expect(outputs).toEqual(['stored', 'stored', expect.stringMatching(/^RangeError: Plugin "filler" storage is full: this write needs 39 KB more, and it uses 78 KB of its 98 KB/)]);
		expect((await t.db.plugin_usage.get('filler'))?.storage_bytes).toBe(2 * (2 * 2 + 16 + 40_000));
		// Overwriting with the same size is allowed; deleting frees the space.
		expect((await t.commands.execute('/fill 1', invocation)).output).toBe('stored');
		expect((await t.commands.execute('/drop 0', invocation)).output).toBe('dropped');
		expect((await t.commands.execute('/fill 2', invocation)).output).toBe('stored');
		expect((await t.commands.execute('/one', invocation)).output).toMatch(/cannot store this value: it is over 1 MB|storage is full/);
		await host.unload('filler');
	});
});
