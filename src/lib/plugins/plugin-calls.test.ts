// Slash commands, tools and register(ctx) pass the same choke point as hook callbacks: each
// call is in the hook log under its plugin and name, the hook timeout applies, and a command
// or tool that ran over is skipped for 60 s.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandInvocation } from '../commands/command-registry';
import type { HookLogEntry } from '../hooks/run-hook';
import { makeHost } from './test-host';

const invocation: CommandInvocation = { session_id: 's-1', session_key: 'web:default:s-1', platform: 'web', source: null };

const PLUGIN = `
export function register(ctx) {
	ctx.register_command('boom', () => { throw new Error('kaput'); });
	ctx.register_command('slow', () => new Promise(() => {}));
	ctx.register_command('fine', (args) => 'fine ' + args);
	ctx.register_tool({ name: 'stuck', handler: () => new Promise(() => {}) });
	ctx.register_tool({ name: 'broken', handler: () => { throw new Error('tool kaput'); } });
	ctx.register_tool({ name: 'circular', handler: () => { const a = {}; a.self = a; return a; } });
}`;

let log: HookLogEntry[];
let clock: number;
let host: ReturnType<typeof makeHost>;

beforeEach(async () => {
	log = [];
	clock = 1_000_000;
	// Hook timeout 0.05 s; the bus's clock is the test's, so "60 s later" needs no waiting.
	host = makeHost(200, { timeoutSeconds: () => 0.05, now: () => clock, record: (entry) => log.push(entry) });
	host.served['https://x.test/calls.js'] = { body: PLUGIN };
	const outcome = await host.host.load(await host.row('https://x.test/calls.js'));
	expect(outcome.ok).toBe(true);
});
afterEach(() => host.close());

const entries = (name: string) => log.filter((entry) => entry.hook === name).map(({ plugin_id, outcome, error }) => ({ plugin_id, outcome, error }));

describe('plugin commands through the choke point', () => {
	it('logs a failing command under its plugin and name, and tells the user', async () => {
		await expect(host.commands.execute('/boom', invocation)).rejects.toThrow('/boom failed: kaput');
		expect(entries('/boom')).toEqual([{ plugin_id: 'calls', outcome: 'error', error: 'kaput' }]);
		await host.commands.execute('/fine now', invocation);
		expect(entries('/fine')).toEqual([{ plugin_id: 'calls', outcome: 'ok', error: undefined }]);
		// Command text is the user's: the log counts it, never copies it.
		expect(log.find((entry) => entry.hook === '/fine')?.summary).toBe('session_id=s-1 args=(3 chars)');
	});

	it('abandons a command past the hook timeout, then skips it for 60 s', async () => {
		await expect(host.commands.execute('/slow', invocation)).rejects.toThrow('/slow did not answer within 0.05 s; it is skipped for the next 60 s.');
		clock += 59_000;
		await expect(host.commands.execute('/slow', invocation)).rejects.toThrow('/slow is skipped for now: it did not answer in time less than 60 s ago.');
		expect(entries('/slow')).toEqual([
			{ plugin_id: 'calls', outcome: 'timeout', error: 'timed out after 0.05 s' },
			{ plugin_id: 'calls', outcome: 'skipped', error: 'skipped: timed out less than 60 s ago' }
		]);
		// Other commands of the plugin are not held back.
		expect(await host.commands.execute('/fine x', invocation)).toEqual({ output: 'fine x' });
		clock += 2_000;
		await expect(host.commands.execute('/slow', invocation)).rejects.toThrow('did not answer within 0.05 s');
		expect(entries('/slow').map((entry) => entry.outcome)).toEqual(['timeout', 'skipped', 'timeout']);
	});
});

describe('plugin tools through the choke point', () => {
	it('logs a tool that throws under its plugin and name', async () => {
		await expect(host.tools.run('broken', {}, { session_id: 's-1' })).rejects.toThrow('tool kaput');
		expect(entries('tool broken')).toEqual([{ plugin_id: 'calls', outcome: 'error', error: 'tool kaput' }]);
	});

	it('reports a result that cannot be sent as an error of the tool, not of the app', async () => {
		await expect(host.tools.run('circular', {}, { session_id: 's-1' })).rejects.toThrow(/circular/i);
		expect(entries('tool circular')).toMatchObject([{ plugin_id: 'calls', outcome: 'error' }]);
	});

	it('abandons a tool past the hook timeout, then skips it for 60 s', async () => {
		await expect(host.tools.run('stuck', {}, { session_id: 's-1' })).rejects.toThrow('Tool "stuck" did not answer within 0.05 s; it is skipped for the next 60 s.');
		clock += 30_000;
		await expect(host.tools.run('stuck', {}, { session_id: 's-1' })).rejects.toThrow('Tool "stuck" is skipped for now');
		expect(entries('tool stuck').map((entry) => entry.outcome)).toEqual(['timeout', 'skipped']);
	});
});

describe('register(ctx) through the choke point', () => {
	it('logs each start-up under register(ctx), and a throw with its plugin', async () => {
		expect(entries('register(ctx)')).toEqual([{ plugin_id: 'calls', outcome: 'ok', error: undefined }]);
		host.served['https://x.test/bad.js'] = { body: `export function register(ctx) { ctx.register_hook('no_such_hook', () => {}); }` };
		const outcome = await host.host.load(await host.row('https://x.test/bad.js'));
		expect(outcome.ok).toBe(false);
		expect(log.filter((entry) => entry.plugin_id === 'bad')).toMatchObject([
			{ hook: 'register(ctx)', outcome: 'error', error: expect.stringContaining('Unknown hook "no_such_hook"') }
		]);
	});

	it('applies the hook timeout to register(ctx) and logs it', async () => {
		host.served['https://x.test/hang.js'] = { body: `export function register() { return new Promise(() => {}); }` };
		const outcome = await host.host.load(await host.row('https://x.test/hang.js'));
		expect(outcome).toMatchObject({ ok: false, error: 'register(ctx) did not finish within 0.05 s.' });
		expect(entries('register(ctx)').at(-1)).toEqual({ plugin_id: 'hang', outcome: 'timeout', error: 'timed out after 0.05 s' });
	});
});
