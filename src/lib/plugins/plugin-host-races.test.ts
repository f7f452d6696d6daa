import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removePlugin, updatePlugin } from '../db/plugin-verbs';
import { PluginHostLoader } from '../state/plugins/plugin-host-loader';
import { confirmAdd, requestAdd } from '../state/plugins/add-plugin';
import { STARTUP_PLUGIN_WAIT_MS } from '../state/plugins/plugin-status';
import { PluginsState } from '../state/plugins/plugins.svelte';
import { REGISTER_ORDER_GRACE_MS } from './plugin-host';
import { gate, makeHost } from './test-host';

/** The code that runs plugins is imported on first use: a busy machine takes a while over it. */
const LOADING = { timeout: 10_000 };

const URL_ = 'https://x.test/good.js';
const GOOD = `
export function register(ctx) {
	ctx.register_hook('pre_llm_call', () => 'hi');
	ctx.register_command('hello', () => 'hello');
}`;

let t: ReturnType<typeof makeHost>;
beforeEach(() => {
	t = makeHost();
});
afterEach(() => t.close());

/** Starts a load whose fetch waits until the returned `open` is called. */
async function startSlowLoad() {
	const slow = gate();
	t.served[URL_] = { body: GOOD, wait: slow.opened };
	const loading = t.host.load((await t.db.plugins.get('good')) ?? (await t.row(URL_)));
	t.served[URL_] = { body: GOOD };
	return { loading, open: slow.open };
}

describe('an unload or a newer load while a plugin is loading', () => {
	it('an unload wins: the load registers nothing and leaves the row alone', async () => {
		const { loading, open } = await startSlowLoad();
		t.host.unload('good');
		open();
		expect(await loading).toMatchObject({ ok: false, superseded: true });
		expect(t.hooks.listRegistrations()).toEqual([]);
		expect(t.commands.has('hello')).toBe(false);
		expect(t.host.isLoaded('good')).toBe(false);
		expect(await t.db.plugins.get('good')).toMatchObject({ cached_source: null, last_error: null });
	});

	it('a removed plugin stays removed', async () => {
		const { loading, open } = await startSlowLoad();
		t.host.unload('good');
		await removePlugin(t.db, 'good');
		open();
		expect(await loading).toMatchObject({ superseded: true });
		expect(await t.db.plugins.get('good')).toBeUndefined();
		expect(t.hooks.listRegistrations()).toEqual([]);
	});

	it('a double reload leaves one copy loaded, whichever finishes first', async () => {
		const first = await startSlowLoad();
		const second = await t.host.load((await t.db.plugins.get('good'))!);
		expect(second.ok).toBe(true);
		first.open();
		expect(await first.loading).toMatchObject({ superseded: true });
		expect(t.hooks.listRegistrations()).toEqual([{ plugin_id: 'good', hook: 'pre_llm_call' }]);
		expect(t.commands.has('hello')).toBe(true);
		expect(t.host.get('good')).toBe(second.ok && second.plugin);
	});

	it('an unload ends the wait for a module whose import never finishes, even with the timeout off', async () => {
		const host = makeHost(0);
		try {
			host.served[URL_] = { body: 'await new Promise(() => {}); export function register() {}' };
			const loading = host.host.load(await host.row(URL_));
			await vi.waitFor(() => expect(vi.mocked(host.fetchImpl).mock.calls.length).toBe(1), LOADING);
			await new Promise((resolve) => setTimeout(resolve, 20));
			host.host.unload('good');
			expect(await loading).toMatchObject({ superseded: true });
		} finally {
			await host.close();
		}
	});

	it('stops a register(ctx) that is still running, without blaming the plugin', async () => {
		const registering = gate();
		(globalThis as Record<string, unknown>).__registering = registering.opened;
		t.served[URL_] = {
			body: `export async function register(ctx) {
				ctx.register_command('early', () => '');
				await globalThis.__registering;
				ctx.register_command('late', () => '');
			}`
		};
		const loading = t.host.load(await t.row(URL_));
		await vi.waitFor(() => expect(t.commands.has('early')).toBe(true), LOADING);
		t.host.unload('good');
		expect(t.commands.has('early')).toBe(false);
		registering.open();
		expect(await loading).toMatchObject({ superseded: true });
		expect(t.commands.has('late')).toBe(false);
		expect((await t.db.plugins.get('good'))?.last_error).toBeNull();
	});
});

describe('the Plugins page status while loads overlap', () => {
	const fetched = () => vi.mocked(t.fetchImpl).mock.calls.length;

	function makeState() {
		return new PluginsState({ db: t.db, host: new PluginHostLoader(async () => t.host), hooks: t.hooks, safeMode: false });
	}

	/** Start-up with the "good" plugin stored, enabled and loaded. */
	async function startWithGoodLoaded() {
		t.served[URL_] = { body: GOOD };
		await t.row(URL_);
		const state = makeState();
		const stop = state.start();
		await state.ready;
		await vi.waitFor(() => expect(state.status.get('good')?.state).toBe('loaded'), LOADING);
		return { state, stop };
	}

	/** A Reload whose download waits until `slow.open()`, started and fetching. */
	async function slowReload(state: PluginsState) {
		const slow = gate();
		t.served[URL_] = { body: GOOD, wait: slow.opened };
		await t.row(URL_);
		const reloading = state.reload('good');
		await vi.waitFor(() => expect(fetched()).toBe(1), LOADING);
		return { slow, reloading };
	}

	it('shows "disabled" when the plugin is disabled while it loads', async () => {
		const state = makeState();
		const { slow, reloading } = await slowReload(state);
		await state.setEnabled('good', false);
		slow.open();
		await reloading;
		expect(state.status.get('good')).toEqual({ state: 'disabled' });
		expect(t.hooks.listRegistrations()).toEqual([]);
	});

	it('shows no status for a plugin removed while it loads', async () => {
		const state = makeState();
		const { slow, reloading } = await slowReload(state);
		await state.remove('good');
		slow.open();
		await reloading;
		expect(state.status.has('good')).toBe(false);
		expect(await t.db.plugins.get('good')).toBeUndefined();
	});

	it('shows the newer reload’s result after a double Reload', async () => {
		const state = makeState();
		const { slow, reloading: first } = await slowReload(state);
		t.served[URL_] = { status: 404 };
		await state.reload('good');
		slow.open();
		await first;
		expect(state.status.get('good')).toMatchObject({ state: 'failed', error: 'The plugin URL answered 404.' });
		expect(t.hooks.listRegistrations()).toEqual([]);
	});

	it('does not load at start-up a plugin disabled or removed while it was downloading', async () => {
		const slow = gate();
		const other = 'https://x.test/other.js';
		const third = 'https://x.test/third.js';
		t.served[URL_] = { body: GOOD, wait: slow.opened };
		t.served[other] = { body: 'export function register(ctx) { ctx.register_command("other", () => "o"); }', wait: slow.opened };
		t.served[third] = { body: 'export function register(ctx) { ctx.register_command("third", () => "t"); }', wait: slow.opened };
		await t.row(URL_);
		await t.row(other);
		await t.row(third);
		const state = makeState();
		const stop = state.start();
		await vi.waitFor(() => expect(fetched()).toBe(3), LOADING);
		await state.setEnabled('other', false);
		await state.remove('third');
		slow.open();
		await vi.waitFor(() => expect(state.status.get('good')?.state).toBe('loaded'), LOADING);
		expect(t.commands.has('hello')).toBe(true);
		expect(t.commands.has('other')).toBe(false);
		expect(t.commands.has('third')).toBe(false);
		expect(state.status.get('other')).toEqual({ state: 'disabled' });
		expect(state.status.has('third')).toBe(false);
		stop();
	});

	it('a plugin whose server never answers holds up no other plugin at start-up', async () => {
		const later = 'https://x.test/later.js';
		t.served[URL_] = { hang: true };
		t.served[later] = { body: 'export function register(ctx) { ctx.register_command("later", () => "l"); }' };
		await t.row(URL_);
		await t.row(later);
		const state = makeState();
		const stop = state.start();
		// It waits for the earlier plugin only briefly (REGISTER_ORDER_GRACE_MS), not its 15 s.
		await vi.waitFor(() => expect(state.status.get('later')?.state).toBe('loaded'), { timeout: REGISTER_ORDER_GRACE_MS + 2000 });
		expect(state.status.get('good')?.state).toBe('loading');
		stop();
	});

	it('follows another tab: a plugin disabled, enabled, added or removed there is unloaded or loaded here', async () => {
		const { state, stop } = await startWithGoodLoaded();

		// The other tab writes the rows; this tab only sees them change.
		await updatePlugin(t.db, 'good', { enabled: 0 });
		await vi.waitFor(() => expect(state.status.get('good')).toEqual({ state: 'disabled' }), LOADING);
		expect(t.commands.has('hello')).toBe(false);
		expect(t.hooks.listRegistrations()).toEqual([]);

		await updatePlugin(t.db, 'good', { enabled: 1 });
		await vi.waitFor(() => expect(state.status.get('good')?.state).toBe('loaded'), LOADING);
		expect(t.commands.has('hello')).toBe(true);

		const other = 'https://x.test/other.js';
		t.served[other] = { body: 'export function register(ctx) { ctx.register_command("other", () => "o"); }' };
		await t.row(other);
		await vi.waitFor(() => expect(state.status.get('other')?.state).toBe('loaded'), LOADING);

		await removePlugin(t.db, 'good');
		await vi.waitFor(() => expect(state.status.has('good')).toBe(false), LOADING);
		expect(t.host.isLoaded('good')).toBe(false);
		expect(t.commands.has('hello')).toBe(false);
		expect(vi.mocked(t.fetchImpl).mock.calls.filter(([url]) => String(url) === other)).toHaveLength(1);
		stop();
	});

	it('adding a plugin in this tab loads it once', async () => {
		t.served[URL_] = { body: GOOD };
		vi.stubGlobal('location', { origin: 'https://app.test' });
		const state = makeState();
		const stop = state.start();
		try {
			await state.ready;
			await requestAdd(state, URL_, '');
			await confirmAdd(state);
			expect(state.status.get('good')?.state).toBe('loaded');
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(fetched()).toBe(1);
		} finally {
			stop();
			vi.unstubAllGlobals();
		}
	});

	it('a plugin still loading after it was added is waited for: its command is there once loads have settled', async () => {
		const slow = gate();
		t.served[URL_] = { body: GOOD, wait: slow.opened };
		vi.stubGlobal('location', { origin: 'https://app.test' });
		const state = makeState();
		const stop = state.start();
		try {
			await state.ready;
			await requestAdd(state, URL_, '');
			const adding = confirmAdd(state);
			await vi.waitFor(() => expect(state.status.get('good')?.state).toBe('loading'), LOADING);
			let settled = false;
			const waiting = state.settled().then(() => (settled = true));
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(settled).toBe(false);
			slow.open();
			await waiting;
			expect(t.commands.has('hello')).toBe(true);
			await adding;
		} finally {
			stop();
			vi.unstubAllGlobals();
		}
	});

	it('at start-up a command name both plugins want goes to the earlier one, even when its download is slower', async () => {
		const slow = gate();
		const second = 'https://x.test/second.js';
		t.served[URL_] = { body: 'export function register(ctx) { ctx.register_command("dup", () => "first"); }', wait: slow.opened };
		t.served[second] = { body: 'export function register(ctx) { ctx.register_command("dup", () => "second"); }' };
		await t.row(URL_);
		await t.row(second);
		const state = makeState();
		const stop = state.start();
		await vi.waitFor(() => expect(fetched()).toBe(2), LOADING);
		await new Promise((resolve) => setTimeout(resolve, 50));
		slow.open();
		await vi.waitFor(() => expect(state.status.get('second')?.state).toBe('failed'), LOADING);
		expect(state.status.get('good')?.state).toBe('loaded');
		expect(state.status.get('second')?.error).toContain('"/dup" is already registered by plugin "good"');
		stop();
	});

	it('a switch whose write fails puts the plugin back as it was and says why', async () => {
		const { state, stop } = await startWithGoodLoaded();
		const refuse = () => {
			throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		};
		t.db.plugins.hook('updating', refuse);
		await expect(state.setEnabled('good', false)).rejects.toThrow('quota');
		t.db.plugins.hook('updating').unsubscribe(refuse);
		await vi.waitFor(() => expect(state.status.get('good')?.state).toBe('loaded'), LOADING);
		expect(t.commands.has('hello')).toBe(true);
		expect((await t.db.plugins.get('good'))?.enabled).toBe(1);
		stop();
	});

	it('start-up waits for plugins a few seconds at most', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		try {
			t.served[URL_] = { hang: true };
			await t.row(URL_);
			const state = makeState();
			const stop = state.start();
			let settled = false;
			void state.ready.then(() => (settled = true));
			await vi.advanceTimersByTimeAsync(STARTUP_PLUGIN_WAIT_MS - 100);
			expect(settled).toBe(false);
			await vi.advanceTimersByTimeAsync(200);
			expect(settled).toBe(true);
			stop();
		} finally {
			vi.useRealTimers();
		}
	});
});

describe('the code that runs plugins, loaded with the first plugin', () => {
	const fetched = () => vi.mocked(t.fetchImpl).mock.calls.length;

	it('is not loaded at start-up when no plugin is switched on', async () => {
		t.served[URL_] = { body: GOOD };
		await t.row(URL_, { enabled: 0 });
		const create = vi.fn(async () => t.host);
		const state = new PluginsState({ db: t.db, host: new PluginHostLoader(create), hooks: t.hooks, safeMode: false });
		const stop = state.start();
		await state.settled();
		expect(state.status.get('good')?.state).toBe('disabled');
		expect(create).not.toHaveBeenCalled();
		expect(state.name('good')).toBe('good');
		stop();
	});

	it('a plugin switched off while that code still loads never runs, and its row says Disabled', async () => {
		t.served[URL_] = { body: GOOD };
		await t.row(URL_);
		const code = gate();
		const state = new PluginsState({ db: t.db, host: new PluginHostLoader(() => code.opened.then(() => t.host)), hooks: t.hooks, safeMode: false });
		const stop = state.start();
		await vi.waitFor(() => expect(state.status.get('good')?.state).toBe('loading'), LOADING);
		await state.setEnabled('good', false);
		code.open();
		await state.settled();
		expect(state.status.get('good')?.state).toBe('disabled');
		expect(fetched()).toBe(0);
		expect(t.commands.has('hello')).toBe(false);
		expect(t.host.isLoaded('good')).toBe(false);
		stop();
	});

	it('when that code cannot be loaded, the row says why, and a Reload tries again', async () => {
		t.served[URL_] = { body: GOOD };
		await t.row(URL_);
		let attempts = 0;
		const load = async () => {
			if (attempts++ === 0) throw new TypeError('Failed to fetch dynamically imported module');
			return t.host;
		};
		const state = new PluginsState({ db: t.db, host: new PluginHostLoader(load), hooks: t.hooks, safeMode: false });
		const stop = state.start();
		await state.settled();
		expect(state.status.get('good')).toMatchObject({ state: 'failed', error: expect.stringContaining('Failed to fetch dynamically imported module') });
		await state.reload('good');
		expect(state.status.get('good')?.state).toBe('loaded');
		expect(t.commands.has('hello')).toBe(true);
		stop();
	});
});
