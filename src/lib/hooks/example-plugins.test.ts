// The example plugins in static/plugins/, loaded as the app loads them (from their source
// text) and driven through the real hook bus.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HookBus } from './hook-bus';
import type { HookPayload } from './hook-map';
import type { HookLogEntry } from './run-hook';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

type Handler = (raw_args: string, context: Record<string, unknown>) => unknown;
interface Command {
	handler: Handler;
	options: { description?: string; args_hint?: string };
}
type PluginModule = {
	manifest?: { name: string; version: string; description?: string };
	register?: (ctx: unknown) => void;
	default?: { register: (ctx: unknown) => void };
};

const BUILT_INS = ['help', 'new', 'reset', 'title', 'usage', 'compress', 'exit', 'archive'];

// The app imports a plugin from its fetched source, not its path: relative imports would fail.
async function importExample(name: string): Promise<PluginModule> {
	const source = readFileSync(resolve(ROOT, `static/plugins/${name}.js`), 'utf8');
	return import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
}

/** A stand-in for the app around one plugin: a real HookBus, an in-memory store, commands. */
async function start(name: string) {
	const mod = await importExample(name);
	const calls: HookLogEntry[] = [];
	const warnings: string[] = [];
	const bus = new HookBus({ record: (entry) => calls.push(entry), logger: { warn: (m) => void warnings.push(m) } });
	const store = new Map<string, unknown>();
	const commands = new Map<string, Command>();
	const ctx = Object.freeze({
		plugin_id: name,
		manifest: mod.manifest ? Object.freeze({ ...mod.manifest }) : null,
		register_hook: (hook: string, callback: unknown) => bus.register(name, hook, callback),
		register_command: (command: string, handler: Handler, options = {}) => {
			if (!/^[a-z0-9][a-z0-9_-]*$/.test(command) || BUILT_INS.includes(command) || commands.has(command)) {
				throw new Error(`Command name "${command}" is refused.`);
			}
			commands.set(command, { handler, options });
			return () => void commands.delete(command);
		},
		register_tool: () => {
			throw new Error('No example registers a tool.');
		},
		storage: {
			get: async (key: string) => structuredClone(store.get(key)),
			set: async (key: string, value: unknown) => void store.set(key, structuredClone(value)),
			delete: async (key: string) => void store.delete(key),
			keys: async (prefix = '') => [...store.keys()].filter((key) => key.startsWith(prefix))
		},
		log: { info() {}, warn() {}, error() {} },
		has_plugin: () => false
	});
	const register = mod.register ?? mod.default?.register;
	expect(register, `${name} exports register`).toBeTypeOf('function');
	register!(ctx);
	return {
		mod,
		bus,
		store,
		commands,
		hooks: () => bus.listRegistrations().map((r) => r.hook),
		/** Every plugin callback so far ran to completion (no throw, no timeout). */
		allOk: () => {
			expect(warnings).toEqual([]);
			expect(calls.filter((c) => c.outcome !== 'ok')).toEqual([]);
		}
	};
}

const SOURCE = {
	platform: 'web',
	user_id: 'u-7f3a',
	user_name: 'Ada',
	chat_id: 'web:default:s1',
	thread_id: 's1',
	profile: 'default'
};

function turn(session_id: string): HookPayload<'pre_llm_call'> {
	return {
		session_id,
		session_key: `web:default:${session_id}`,
		user_message: 'next question',
		conversation_history: [],
		is_first_turn: false,
		model: 'offline',
		platform: 'web',
		profile: 'default'
	};
}

function compaction(session_id: string): HookPayload<'post_compaction'> {
	return {
		session_id,
		old_session_id: '',
		kind: 'summarize',
		reason: 'pre_api',
		before_tokens: 90_000,
		after_tokens: 12_000,
		messages_removed: 40,
		profile: 'default',
		platform: 'web'
	};
}

function deletion(session_id: string, extra: Partial<HookPayload<'on_session_delete'>> = {}): HookPayload<'on_session_delete'> {
	return { session_id, reason: 'delete', profile: 'default', sessions_dir: null, ...extra };
}

describe('static/plugins/conventions.js', () => {
	const completed = (session_id: string): HookPayload<'post_llm_call'> => ({
		session_id,
		user_message: 'next question',
		assistant_response: 'ok',
		model: 'offline',
		usage: null
	});

	it('has the manifest and hooks the guide describes', async () => {
		const plugin = await start('conventions');
		expect(plugin.mod.manifest).toMatchObject({ name: 'conventions', version: '1.0.0' });
		expect(plugin.mod.manifest?.description).toBeTruthy();
		expect(plugin.hooks().sort()).toEqual(['on_session_delete', 'post_compaction', 'post_llm_call', 'pre_llm_call']);
	});

	it('injects the conventions after a compaction until a turn completes, and not before or again', async () => {
		const plugin = await start('conventions');
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);
		await plugin.bus.notify('post_llm_call', completed('s1'));

		await plugin.bus.notify('post_compaction', compaction('s1'));
		const first = await plugin.bus.collect('pre_llm_call', turn('s1'));
		expect(first).toHaveLength(1);
		expect(first[0]).toMatchObject({ plugin_id: 'conventions' });
		expect(first[0].text).toMatch(/conventions/i);
		await plugin.bus.notify('post_llm_call', completed('s1'));

		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);
		plugin.allOk();
	});

	it('injects again when the turn that carried them failed or was stopped (Retry)', async () => {
		const plugin = await start('conventions');
		await plugin.bus.notify('post_compaction', compaction('s1'));
		// No post_llm_call: the turn failed or was stopped, so the model never answered with them.
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		await plugin.bus.notify('post_llm_call', completed('s1'));
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);
		plugin.allOk();
	});

	it('keeps the mark of a compaction made during a turn past that turn’s completion', async () => {
		const plugin = await start('conventions');
		// A turn with nothing to inject, compacted mid-way (after a tool result).
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);
		await plugin.bus.notify('post_compaction', compaction('s1'));
		await plugin.bus.notify('post_llm_call', completed('s1'));
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		// A turn that carried them, compacted again mid-way: the newer mark stays.
		await plugin.bus.notify('post_compaction', compaction('s1'));
		await plugin.bus.notify('post_llm_call', completed('s1'));
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		await plugin.bus.notify('post_llm_call', completed('s1'));
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toEqual([]);
		plugin.allOk();
	});

	it('keeps the mark per session, in storage, until that session’s next completed turn', async () => {
		const plugin = await start('conventions');
		await plugin.bus.notify('post_compaction', compaction('s1'));
		expect([...plugin.store.keys()]).toEqual(['pending:s1']);
		expect(await plugin.bus.collect('pre_llm_call', turn('s2'))).toEqual([]);
		await plugin.bus.notify('post_llm_call', completed('s2'));
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		expect([...plugin.store.keys()]).toEqual(['pending:s1']);
		await plugin.bus.notify('post_llm_call', completed('s1'));
		expect(plugin.store.size).toBe(0);
		plugin.allOk();
	});

	it('drops the marks of deleted sessions, with or without deleted_ids', async () => {
		const plugin = await start('conventions');
		for (const id of ['a', 'b', 'c', 'd']) await plugin.bus.notify('post_compaction', compaction(id));
		await plugin.bus.notify('on_session_delete', deletion('a', { deleted_ids: ['a', 'b'] }));
		await plugin.bus.notify('on_session_delete', deletion('c'));
		expect([...plugin.store.keys()]).toEqual(['pending:d']);
		expect(await plugin.bus.collect('pre_llm_call', turn('a'))).toEqual([]);
		plugin.allOk();
	});
});

describe('static/plugins/session-index.js', () => {
	const answer = (session_id: string, user_message: string): HookPayload<'post_llm_call'> => ({
		session_id,
		user_message,
		assistant_response: 'ok',
		model: 'offline',
		usage: null
	});
	const started = (session_id: string): HookPayload<'on_session_start'> => ({
		session_id,
		session_key: `web:default:${session_id}`,
		platform: 'web',
		profile: 'default',
		model: 'offline'
	});

	it('registers its hooks and the /index command', async () => {
		const plugin = await start('session-index');
		expect(plugin.hooks().sort()).toEqual(['on_session_delete', 'on_session_start', 'post_llm_call']);
		expect([...plugin.commands.keys()]).toEqual(['index']);
		expect(plugin.commands.get('index')!.options.description).toBeTruthy();
	});

	it('creates an entry on start and updates it after each answer', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('on_session_start', started('s1'));
		expect(plugin.store.get('session:s1')).toMatchObject({ turns: 0 });
		await plugin.bus.notify('post_llm_call', answer('s1', 'first'));
		await plugin.bus.notify('post_llm_call', answer('s1', 'How do I rotate the API keys?'));
		expect(plugin.store.get('session:s1')).toMatchObject({
			turns: 2,
			last_user_message_preview: 'How do I rotate the API keys?'
		});
		plugin.allOk();
	});

	it('drops the sidecar of every id in deleted_ids', async () => {
		const plugin = await start('session-index');
		for (const id of ['p', 'c1', 'c2', 'other']) await plugin.bus.notify('post_llm_call', answer(id, 'q'));
		await plugin.bus.notify('on_session_delete', deletion('p', { deleted_ids: ['p', 'c1', 'c2'] }));
		expect([...plugin.store.keys()]).toEqual(['session:other']);
		plugin.allOk();
	});

	it('drops the sidecar of session_id when deleted_ids is absent', async () => {
		const plugin = await start('session-index');
		for (const id of ['s1', 's2']) await plugin.bus.notify('post_llm_call', answer(id, 'q'));
		await plugin.bus.notify('on_session_delete', deletion('s1', { reason: 'empty_sweep' }));
		expect([...plugin.store.keys()]).toEqual(['session:s2']);
		plugin.allOk();
	});

	it('keeps the entry of an archived session, flagged', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('post_llm_call', answer('s1', 'q'));
		await plugin.bus.notify('on_session_delete', deletion('s1', { reason: 'archive' }));
		expect(plugin.store.get('session:s1')).toMatchObject({ turns: 1, archived: true });
		plugin.allOk();
	});

	it('/index shows the count and the current session’s entry', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('post_llm_call', answer('s1', 'Where are the logs?'));
		await plugin.bus.notify('post_llm_call', answer('s2', 'q'));
		const { handler } = plugin.commands.get('index')!;
		const context = { session_id: 's1', session_key: 'web:default:s1', platform: 'web', source: SOURCE };
		const text = await handler('', context);
		expect(text).toBeTypeOf('string');
		expect(text).toMatch(/\b2\b/);
		expect(text).toContain('s1');
		expect(text).toContain('Where are the logs?');
		expect(await handler('', { ...context, session_id: 'new' })).toMatch(/not indexed/);
	});
});

describe('static/plugins/whoami.js', () => {
	it('registers /whoami with the described description and no hooks', async () => {
		const plugin = await start('whoami');
		expect([...plugin.commands.keys()]).toEqual(['whoami']);
		expect(plugin.commands.get('whoami')!.options.description).toBe('Show who is calling, from which session');
		expect(plugin.hooks()).toEqual([]);
	});

	it('answers with the caller and the session from the command context', async () => {
		const plugin = await start('whoami');
		const text = await plugin.commands.get('whoami')!.handler('', {
			session_id: 'sess-42',
			session_key: 'web:work:sess-42',
			platform: 'web',
			source: { ...SOURCE, user_id: 'user-9', user_name: 'Grace', profile: 'work' }
		});
		expect(text).toBeTypeOf('string');
		for (const part of ['sess-42', 'web:work:sess-42', 'user-9', 'Grace', 'work', 'web']) expect(text).toContain(part);
		expect(String(text).split('\n').length).toBeGreaterThan(1);
	});

	it('still answers when no user invoked it (source is null)', async () => {
		const plugin = await start('whoami');
		const text = await plugin.commands.get('whoami')!.handler('', {
			session_id: 'sess-1',
			session_key: 'web:default:sess-1',
			platform: 'web',
			source: null
		});
		expect(text).toContain('sess-1');
	});
});
