// The example plugins in static/plugins/, loaded as the app loads them (fetched source,
// the real plugin context, storage and command registry) and driven through the hook bus.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CommandInvocation } from '../commands/command-registry';
import { kvGet, kvKeys } from '../db/plugin-verbs';
import { makeHost } from '../plugins/test-host';
import type { HookPayload } from './hook-map';
import type { HookLogEntry } from './run-hook';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** One example plugin loaded into a throwaway app: its hooks, storage and commands. */
async function start(name: string) {
	const calls: HookLogEntry[] = [];
	const warnings: string[] = [];
	const t = makeHost(1000, { record: (entry) => calls.push(entry), logger: { warn: (m) => void warnings.push(m) } });
	onTestFinished(() => t.close());
	const url = `https://plugins.test/${name}.js`;
	t.served[url] = { body: readFileSync(resolve(ROOT, `static/plugins/${name}.js`), 'utf8') };
	const outcome = await t.host.load(await t.row(url));
	expect(outcome, `${name} loads`).toMatchObject({ ok: true });
	const mine = () => t.commands.list().filter((c) => c.plugin_id === name);
	return {
		manifest: outcome.ok ? outcome.plugin.manifest : null,
		bus: t.hooks,
		store: {
			keys: () => kvKeys(t.db, name),
			get: (key: string) => kvGet(t.db, name, key)
		},
		commands: {
			names: () => mine().map((c) => c.name),
			info: (command: string) => mine().find((c) => c.name === command),
			run: async (text: string, invocation: CommandInvocation) => (await t.commands.execute(text, invocation)).output
		},
		hooks: () => t.hooks.listRegistrations().map((r) => r.hook),
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
		expect(plugin.manifest).toMatchObject({ name: 'conventions', version: '1.0.0' });
		expect(plugin.manifest?.description).toBeTruthy();
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
		expect(await plugin.store.keys()).toEqual(['pending:s1']);
		expect(await plugin.bus.collect('pre_llm_call', turn('s2'))).toEqual([]);
		await plugin.bus.notify('post_llm_call', completed('s2'));
		expect(await plugin.bus.collect('pre_llm_call', turn('s1'))).toHaveLength(1);
		expect(await plugin.store.keys()).toEqual(['pending:s1']);
		await plugin.bus.notify('post_llm_call', completed('s1'));
		expect(await plugin.store.keys()).toEqual([]);
		plugin.allOk();
	});

	it('drops the marks of deleted sessions, with or without deleted_ids', async () => {
		const plugin = await start('conventions');
		for (const id of ['a', 'b', 'c', 'd']) await plugin.bus.notify('post_compaction', compaction(id));
		await plugin.bus.notify('on_session_delete', deletion('a', { deleted_ids: ['a', 'b'] }));
		await plugin.bus.notify('on_session_delete', deletion('c'));
		expect(await plugin.store.keys()).toEqual(['pending:d']);
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
		expect(plugin.commands.names()).toEqual(['index']);
		expect(plugin.commands.info('index')?.description).toBeTruthy();
	});

	it('creates an entry on start and updates it after each answer', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('on_session_start', started('s1'));
		expect(await plugin.store.get('session:s1')).toMatchObject({ turns: 0 });
		await plugin.bus.notify('post_llm_call', answer('s1', 'first'));
		await plugin.bus.notify('post_llm_call', answer('s1', 'How do I rotate the API keys?'));
		expect(await plugin.store.get('session:s1')).toMatchObject({
			turns: 2,
			last_user_message_preview: 'How do I rotate the API keys?'
		});
		plugin.allOk();
	});

	it('drops the sidecar of every id in deleted_ids', async () => {
		const plugin = await start('session-index');
		for (const id of ['p', 'c1', 'c2', 'other']) await plugin.bus.notify('post_llm_call', answer(id, 'q'));
		await plugin.bus.notify('on_session_delete', deletion('p', { deleted_ids: ['p', 'c1', 'c2'] }));
		expect(await plugin.store.keys()).toEqual(['session:other']);
		plugin.allOk();
	});

	it('drops the sidecar of session_id when deleted_ids is absent', async () => {
		const plugin = await start('session-index');
		for (const id of ['s1', 's2']) await plugin.bus.notify('post_llm_call', answer(id, 'q'));
		await plugin.bus.notify('on_session_delete', deletion('s1', { reason: 'empty_sweep' }));
		expect(await plugin.store.keys()).toEqual(['session:s2']);
		plugin.allOk();
	});

	it('keeps the entry of an archived session, flagged', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('post_llm_call', answer('s1', 'q'));
		await plugin.bus.notify('on_session_delete', deletion('s1', { reason: 'archive' }));
		expect(await plugin.store.get('session:s1')).toMatchObject({ turns: 1, archived: true });
		plugin.allOk();
	});

	it('/index shows the count and the current session’s entry', async () => {
		const plugin = await start('session-index');
		await plugin.bus.notify('post_llm_call', answer('s1', 'Where are the logs?'));
		await plugin.bus.notify('post_llm_call', answer('s2', 'q'));
		const handler = (_args: string, invocation: CommandInvocation) => plugin.commands.run('/index', invocation);
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
		expect(plugin.commands.names()).toEqual(['whoami']);
		expect(plugin.commands.info('whoami')?.description).toBe('Show who is calling, from which session');
		expect(plugin.hooks()).toEqual([]);
	});

	it('answers with the caller and the session from the command context', async () => {
		const plugin = await start('whoami');
		const text = await plugin.commands.run('/whoami', {
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
		const text = await plugin.commands.run('/whoami', {
			session_id: 'sess-1',
			session_key: 'web:default:sess-1',
			platform: 'web',
			source: null
		});
		expect(text).toContain('sess-1');
	});
});
