import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandRegistry } from '../commands/command-registry';
import type { PalimpsestDb } from '../db/database';
import { kvKeys } from '../db/plugin-verbs';
import type { PluginRow } from '../db/schema';
import type { HookBus } from '../hooks/hook-bus';
import { sha256Hex } from './fetch-plugin-source';
import { importFromDataUrl } from './import-plugin-module';
import { loadPluginModule } from './load-plugin';
import { inPageRunner } from './plugin-runner';
import type { PluginHost } from './plugin-host';
import type { ToolRegistry } from './plugin-tools';
import { pluginIdFromUrl, resolvePluginUrl } from './plugin-url';
import { makeHost, RUNNER_KINDS, type Served } from './test-host';

const GOOD = `
export const manifest = { name: 'good', version: '1.2.3', description: 'A good plugin' };
export function register(ctx) {
	ctx.register_hook('post_compaction', () => {});
	ctx.register_hook('pre_llm_call', () => 'remember ' + ctx.plugin_id);
	ctx.register_command('hello', (args, { session_id }) => 'hello ' + session_id);
	ctx.register_tool({ name: 'clock', description: 'time', parameters: { type: 'object' }, handler: () => 'noon' });
	return ctx.storage.set('ready', true);
}`;

let db: PalimpsestDb;
let hooks: HookBus;
let commands: CommandRegistry;
let tools: ToolRegistry;
let served: Served;
let host: PluginHost;
let row: (url: string, extra?: Partial<PluginRow>) => Promise<PluginRow>;
let close: () => Promise<void>;

describe.each(RUNNER_KINDS)('loading plugins (%s)', (kind) => {
	beforeEach(() => {
		({ db, hooks, commands, tools, served, host, row, close } = makeHost(200, {}, undefined, kind));
	});
	afterEach(() => close());

	it('registers hooks, commands, tools and storage, and caches the code', async () => {
		served['https://x.test/good.js'] = { body: GOOD };
		const outcome = await host.load(await row('https://x.test/good.js'));
		expect(outcome.ok).toBe(true);
		if (!outcome.ok) return;
		expect(outcome.plugin.manifest).toEqual({ name: 'good', version: '1.2.3', description: 'A good plugin' });
		expect(outcome.plugin.registered).toEqual({ hooks: ['post_compaction', 'pre_llm_call'], commands: ['hello'], tools: ['clock'] });
		expect(await hooks.collect('pre_llm_call', {
			session_id: 's', session_key: 'k', user_message: 'hi', conversation_history: [], is_first_turn: true,
			model: 'm', platform: 'web', profile: 'default'
		})).toEqual([{ plugin_id: 'good', text: 'remember good' }]);
		expect(await kvKeys(db, 'good')).toEqual(['ready']);
		expect((await db.plugins.get('good'))?.cached_source).toBe(GOOD);
	});

	it('undoes everything on unload (disable, remove, reload)', async () => {
		served['https://x.test/good.js'] = { body: GOOD };
		await host.load(await row('https://x.test/good.js'));
		host.unload('good');
		expect(hooks.listRegistrations()).toEqual([]);
		expect(commands.has('hello')).toBe(false);
		expect(tools.list()).toEqual([]);
		expect(host.isLoaded('good')).toBe(false);
	});

	it.each([
		['a 404', { status: 404, body: 'nope' }, 'The plugin URL answered 404'],
		['an HTML page', { type: 'text/html', body: '<!doctype html>' }, 'not JavaScript (it was served as text/html)'],
		['a syntax error', { body: 'export function register(ctx) { ctx.register_hook(' }, 'The plugin has a syntax error'],
		['no register', { body: 'export const x = 1;' }, 'does not export a register(ctx) function'],
		['a throw in register', { body: 'export function register() { throw new Error("bad config"); }' }, 'register(ctx) threw: bad config'],
		['an unknown hook', { body: 'export function register(ctx) { ctx.register_hook("post_compact", () => {}); }' }, 'Did you mean "post_compaction"'],
		['a hanging register', { body: 'export function register() { return new Promise(() => {}); }' }, 'did not finish within 0.2 s'],
		['a network or CORS failure', { fail: true }, 'Access-Control-Allow-Origin']
	])('reports %s in the row and keeps nothing registered', async (_name, entry, message) => {
		served['https://x.test/bad.js'] = entry;
		const outcome = await host.load(await row('https://x.test/bad.js'));
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) expect(outcome.error).toContain(message);
		expect((await db.plugins.get('bad'))?.last_error).toContain(message);
		expect(hooks.listRegistrations()).toEqual([]);
	});

	it('unregisters what register added before it threw', async () => {
		served['https://x.test/half.js'] = { body: 'export function register(ctx) { ctx.register_hook("post_compaction", () => {}); ctx.register_command("half", () => ""); throw new Error("late"); }' };
		await host.load(await row('https://x.test/half.js'));
		expect(hooks.listRegistrations()).toEqual([]);
		expect(commands.has('half')).toBe(false);
	});

	it('refuses code whose sha256 differs from the pin, and accepts the pinned code', async () => {
		served['https://x.test/good.js'] = { body: GOOD };
		const wrong = await host.load(await row('https://x.test/good.js', { pinned_sha256: 'a'.repeat(64) }));
		expect(wrong.ok).toBe(false);
		if (!wrong.ok) expect(wrong.error).toContain(`its sha256 is ${await sha256Hex(GOOD)}, but it is pinned to ${'a'.repeat(64)}`);
		const good = await host.load({ ...(await db.plugins.get('good'))!, pinned_sha256: await sha256Hex(GOOD) });
		expect(good.ok).toBe(true);
	});

	it('pins the sha256 that sha256sum prints for the file as served, a byte-order mark included', async () => {
		// Editors on Windows often save with a BOM; fetch's text() would silently drop it.
		const bytes = new TextEncoder().encode(`\uFEFF${GOOD.replace(/\n/g, '\r\n')}`);
		expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		const printed = createHash('sha256').update(bytes).digest('hex');
		served['https://x.test/good.js'] = { body: `\uFEFF${GOOD.replace(/\n/g, '\r\n')}` };
		const fetched = await host.load(await row('https://x.test/good.js', { pinned_sha256: printed }));
		expect(fetched.ok).toBe(true);
		// The copy kept for offline use passes the same pin.
		host.unload('good');
		served['https://x.test/good.js'] = { fail: true };
		const cached = await host.load((await db.plugins.get('good'))!);
		expect(cached.ok && cached.plugin.fromCache).toBe(true);
		expect((await db.plugins.get('good'))?.cached_sha256).toBe(printed);
	});

	it('refuses a file that is not UTF-8 with a reason, instead of running altered text', async () => {
		const latin1 = new Uint8Array([...new TextEncoder().encode('// caf'), 0xe9, 0x0a, ...new TextEncoder().encode(GOOD)]);
		const fetchImpl = (async () => new Response(latin1, { headers: { 'content-type': 'text/javascript' } })) as typeof fetch;
		const loading = loadPluginModule({ url: 'https://x.test/l.js', pinned_sha256: null, cached_source: null }, { fetchImpl, runner: inPageRunner(importFromDataUrl) });
		await expect(loading).rejects.toThrow('The plugin file is not valid UTF-8 text; save it as UTF-8.');
	});

	it('reports a module whose top-level await never settles, after the load limit', async () => {
		const hung = 'await new Promise(() => {}); export function register() {}';
		const fetchImpl = (async () => new Response(hung, { headers: { 'content-type': 'text/javascript' } })) as typeof fetch;
		const loading = loadPluginModule(
			{ url: 'https://x.test/hung.js', pinned_sha256: null, cached_source: null },
			{ fetchImpl, importTimeoutMs: 50, runner: inPageRunner(importFromDataUrl) }
		);
		await expect(loading).rejects.toThrow('did not finish loading within 0.05 s');
	});

	it('keeps a new plugin\'s first copy as soon as it is fetched, so a reload right after adding it works offline', async () => {
		const slow = 'export function register() { return new Promise((resolve) => setTimeout(resolve, 150)); }';
		served['https://x.test/slow.js'] = { body: slow };
		const loading = host.load(await row('https://x.test/slow.js'));
		await expect.poll(async () => (await db.plugins.get('slow'))?.cached_source, { interval: 5 }).toBe(slow);
		expect(host.isLoaded('slow')).toBe(false);
		expect((await loading).ok).toBe(true);
		// A later copy replaces a cached one only once it has loaded.
		host.unload('slow');
		served['https://x.test/slow.js'] = { body: 'export function register() { throw new Error("v2 is broken"); }' };
		expect((await host.load((await db.plugins.get('slow'))!)).ok).toBe(false);
		expect((await db.plugins.get('slow'))?.cached_source).toBe(slow);
	});

	it('loads the cached code when the network is gone', async () => {
		served['https://x.test/good.js'] = { body: GOOD };
		await host.load(await row('https://x.test/good.js'));
		host.unload('good');
		served['https://x.test/good.js'] = { fail: true };
		const outcome = await host.load((await db.plugins.get('good'))!);
		expect(outcome.ok && outcome.plugin.fromCache).toBe(true);
	});
});

describe('plugin URLs', () => {
	it('accepts https, localhost and same-origin paths, and names ids after the file', () => {
		const origin = 'http://127.0.0.1:4173';
		expect(resolvePluginUrl('/plugins/whoami.js', origin)).toBe('http://127.0.0.1:4173/plugins/whoami.js');
		expect(resolvePluginUrl('http://localhost:9000/p.js', origin)).toBe('http://localhost:9000/p.js');
		expect(resolvePluginUrl('https://cdn.test/p.mjs', origin)).toBe('https://cdn.test/p.mjs');
		expect(() => resolvePluginUrl('http://evil.test/p.js', origin)).toThrow(/https URLs, localhost URLs or paths/);
		expect(() => resolvePluginUrl('http://127.evil.test/p.js', origin)).toThrow(/https URLs, localhost URLs or paths/);
		expect(resolvePluginUrl('http://127.0.0.2:8000/p.js', origin)).toBe('http://127.0.0.2:8000/p.js');
		expect(() => resolvePluginUrl('  ', origin)).toThrow(/Enter the URL/);
		expect(pluginIdFromUrl('https://a.test/x/Session Index.js', new Set(['session-index']))).toBe('session-index-2');
	});

	it('refuses a URL with malformed percent-encoding when it is added, saying why', () => {
		const origin = 'http://127.0.0.1:4173';
		for (const broken of ['https://cdn.test/%E0%A4%A.js', 'https://cdn.test/100%.js', '/plugins/%zz/p.js']) {
			expect(() => resolvePluginUrl(broken, origin)).toThrow(`"${broken}" has a broken percent-encoding`);
			expect(() => resolvePluginUrl(broken, origin)).not.toThrow(/URI malformed/);
		}
		// Well-formed escapes are fine, and name the plugin by the decoded file name.
		const url = resolvePluginUrl('https://cdn.test/my%20plugin.js', origin);
		expect(pluginIdFromUrl(url, new Set())).toBe('my-plugin');
	});
});
