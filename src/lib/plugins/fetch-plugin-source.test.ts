import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchPluginSource, PluginLoadError } from './fetch-plugin-source';
import { fakeFetch, makeHost } from './test-host';

const URL_ = 'https://x.test/p.js';
const SOURCE = 'export function register(ctx) { ctx.register_command("hi", () => "hi"); }';

afterEach(() => vi.useRealTimers());

describe('fetching a plugin from a server that never answers', () => {
	it('gives up after 15 s by default, says so, and aborts the request', async () => {
		vi.useFakeTimers();
		let signal: AbortSignal | undefined;
		const fetchImpl = vi.fn((_url: string, init?: RequestInit) => {
			signal = init?.signal ?? undefined;
			return new Promise<never>(() => {});
		}) as unknown as typeof fetch;
		let error: unknown;
		void fetchPluginSource(URL_, { fetchImpl }).catch((e: unknown) => (error = e));
		await vi.advanceTimersByTimeAsync(14_999);
		expect(error).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(error).toBeInstanceOf(PluginLoadError);
		expect((error as PluginLoadError).message).toBe('The plugin URL did not answer within 15 s.');
		expect((error as PluginLoadError).unreachable).toBe(true);
		expect(signal?.aborted).toBe(true);
	});

	it('covers a body that stalls after the headers', async () => {
		vi.useFakeTimers();
		const stalled = new ReadableStream({ start: () => {} });
		const fetchImpl = (async () => new Response(stalled, { headers: { 'content-type': 'text/javascript' } })) as typeof fetch;
		const result = fetchPluginSource(URL_, { fetchImpl, timeoutMs: 2_000 });
		const settled = expect(result).rejects.toThrow('The plugin URL did not answer within 2 s.');
		await vi.advanceTimersByTimeAsync(2_000);
		await settled;
	});

	it('leaves no timer behind once the code has arrived', async () => {
		vi.useFakeTimers();
		await expect(fetchPluginSource(URL_, { fetchImpl: fakeFetch({ [URL_]: { body: SOURCE } }) })).resolves.toBe(SOURCE);
		expect(vi.getTimerCount()).toBe(0);
	});
});

describe('loading a plugin whose server never answers', () => {
	/** Loads with fake timers past the 15 s download limit, then back to real time. */
	async function loadPastLimit(host: ReturnType<typeof makeHost>['host'], added: Parameters<ReturnType<typeof makeHost>['host']['load']>[0]) {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		let outcome: Awaited<ReturnType<typeof host.load>> | undefined;
		void host.load(added).then((o) => (outcome = o));
		await vi.advanceTimersByTimeAsync(15_000);
		vi.useRealTimers();
		await vi.waitFor(() => expect(outcome).toBeDefined());
		return outcome!;
	}

	it('reports the timeout in the row when there is no cached copy, even with a 0.2 s hook timeout', async () => {
		const { host, served, row, db, close } = makeHost(200);
		served[URL_] = { hang: true };
		const outcome = await loadPastLimit(host, await row(URL_));
		expect(outcome).toMatchObject({ ok: false, error: 'The plugin URL did not answer within 15 s.' });
		expect((await db.plugins.get('p'))?.last_error).toBe('The plugin URL did not answer within 15 s.');
		await close();
	});

	it('runs the cached copy instead, as when offline', async () => {
		const { host, served, row, commands, close } = makeHost(200);
		served[URL_] = { hang: true };
		const outcome = await loadPastLimit(host, await row(URL_, { cached_source: SOURCE }));
		expect(outcome.ok && outcome.plugin.fromCache).toBe(true);
		expect(commands.has('hi')).toBe(true);
		await close();
	});

	it('waits 15 s when the hook timeout is off', async () => {
		const { host, served, row, close } = makeHost(0);
		served[URL_] = { hang: true };
		const added = await row(URL_, { cached_source: SOURCE });
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		let outcome: unknown;
		void host.load(added).then((o) => (outcome = o));
		await vi.advanceTimersByTimeAsync(14_999);
		expect(outcome).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		vi.useRealTimers();
		await vi.waitFor(() => expect(outcome).toMatchObject({ ok: true, plugin: { fromCache: true } }));
		await close();
	});
});
