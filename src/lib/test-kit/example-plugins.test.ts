// The example plugins in static/plugins/, tested as their authors would test them: with the
// published test kit (static/plugin-test-kit.js), which fires hooks under the app's own rules
// (kit-matches-app.test.ts holds it to the app).
import { describe, expect, it } from 'vitest';
import { createTestKit, type TestKit } from '../../../static/plugin-test-kit.js';
import * as conventionsModule from '../../../static/plugins/conventions.js';
import * as lostFactsModule from '../../../static/plugins/lost-facts.js';
import * as sessionIndexModule from '../../../static/plugins/session-index.js';
import * as whoamiModule from '../../../static/plugins/whoami.js';

const MODULES = { conventions: conventionsModule, 'lost-facts': lostFactsModule, 'session-index': sessionIndexModule, whoami: whoamiModule };

/** One example plugin loaded into a fresh kit, with its id as the app would give it. */
async function start(name: keyof typeof MODULES) {
	const kit = createTestKit();
	const plugin = await kit.load(MODULES[name], { plugin_id: name });
	return {
		kit,
		plugin,
		/** Every plugin call so far ran cleanly: no throw, timeout or unusable return. */
		allOk: () => expect(kit.calls.filter((call) => call.outcome !== 'ok')).toEqual([])
	};
}

/** The n-th user turn of a session: a new message on a longer history each time. */
function turn(session_id: string, n: number) {
	const history = Array.from({ length: 2 * n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` }) as const);
	return { session_id, user_message: `question ${n}`, conversation_history: history };
}

/** The context pre_llm_call adds to the n-th turn of the session ('' for none). */
const injected = async (kit: TestKit, session_id: string, n: number) => (await kit.fire('pre_llm_call', turn(session_id, n))).context;

describe('static/plugins/lost-facts.js', () => {
	it('carries the facts a compaction lost on the next turn, until a turn with them completes', async () => {
		const { kit, allOk } = await start('lost-facts');
		expect(await injected(kit, 's1', 1)).toBe('');
		await kit.fire('post_compaction', { session_id: 's1', facts_lost: ['config/deploy.yaml', 'Never run migrations on Fridays.'] });
		const first = await kit.fire('pre_llm_call', turn('s1', 2));
		expect(first.injected).toEqual([{ plugin_id: 'lost-facts', text: expect.stringContaining('- config/deploy.yaml\n- Never run migrations on Fridays.') }]);
		// A stopped turn: the next one carries them again.
		expect(await injected(kit, 's1', 2)).toContain('config/deploy.yaml');
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(await injected(kit, 's1', 3)).toBe('');
		expect(await injected(kit, 's2', 1)).toBe('');
		allOk();
	});

	it('a compaction that lost nothing clears what an earlier one left, and a deleted session leaves nothing stored', async () => {
		const { kit, plugin, allOk } = await start('lost-facts');
		await kit.fire('post_compaction', { session_id: 's1', facts_lost: ['port 8443'] });
		expect(plugin.stored()).toEqual({ 'lost:s1': ['port 8443'] });
		await kit.fire('post_compaction', { session_id: 's1', facts_lost: [] });
		expect(await injected(kit, 's1', 1)).toBe('');
		await kit.fire('post_compaction', { session_id: 's2', facts_lost: ['port 8443'] });
		expect(plugin.stored()).toEqual({ 'lost:s2': ['port 8443'] });
		await kit.fire('on_session_delete', { session_id: 's2', reason: 'delete' });
		expect(plugin.stored()).toEqual({});
		expect(await injected(kit, 's2', 1)).toBe('');
		allOk();
	});
});

describe('static/plugins/conventions.js', () => {
	it('has the manifest and hooks the guide describes', async () => {
		const { plugin } = await start('conventions');
		expect(plugin.manifest).toMatchObject({ name: 'conventions', version: '1.1.0' });
		expect(plugin.manifest?.description).toBeTruthy();
		expect([...plugin.registered.hooks].sort()).toEqual(['on_session_delete', 'post_compaction', 'post_llm_call', 'pre_llm_call']);
	});

	it('injects the conventions after a compaction until a turn completes, and not before or again', async () => {
		const { kit, allOk } = await start('conventions');
		expect(await injected(kit, 's1', 1)).toBe('');
		await kit.fire('post_llm_call', { session_id: 's1' });

		await kit.fire('post_compaction', { session_id: 's1' });
		const first = await kit.fire('pre_llm_call', turn('s1', 2));
		expect(first.injected).toEqual([{ plugin_id: 'conventions', text: expect.stringMatching(/conventions/i) }]);
		expect(first.calls[0].result).toMatch(/^added context \(\d+ chars\): "Team conventions/);
		await kit.fire('post_llm_call', { session_id: 's1' });

		expect(await injected(kit, 's1', 3)).toBe('');
		allOk();
	});

	it('injects again when the turn that carried them failed or was stopped, and on its Retry', async () => {
		const { kit, allOk } = await start('conventions');
		await kit.fire('post_compaction', { session_id: 's1' });
		// No post_llm_call: the turn failed or was stopped, so the model never answered with them.
		expect(await injected(kit, 's1', 1)).toMatch(/conventions/);
		expect(await injected(kit, 's1', 1)).toMatch(/conventions/);
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(await injected(kit, 's1', 2)).toBe('');
		allOk();
	});

	it('carries them again on Retry of the completed turn that carried them, and not after the next turn', async () => {
		const { kit, allOk } = await start('conventions');
		await kit.fire('post_compaction', { session_id: 's1' });
		expect(await injected(kit, 's1', 4)).toMatch(/conventions/);
		await kit.fire('post_llm_call', { session_id: 's1' });
		// Retry asks the same message on the same history: the retried request is the one that carried them.
		expect(await injected(kit, 's1', 4)).toMatch(/conventions/);
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(await injected(kit, 's1', 4)).toMatch(/conventions/);
		expect(await injected(kit, 's1', 5)).toBe('');
		expect(await injected(kit, 's1', 4)).toBe('');
		allOk();
	});

	it('keeps the mark of a compaction made during or after a turn past that turn’s completion', async () => {
		const { kit, allOk } = await start('conventions');
		// A turn with nothing to inject, compacted mid-way (after a tool result).
		expect(await injected(kit, 's1', 1)).toBe('');
		await kit.fire('post_compaction', { session_id: 's1', reason: 'post_tool' });
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(await injected(kit, 's1', 2)).not.toBe('');
		// A turn that carried them, compacted again by the idle pass before its post_llm_call: the newer mark stays.
		await kit.fire('post_compaction', { session_id: 's1', reason: 'between_turns' });
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(await injected(kit, 's1', 3)).not.toBe('');
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(await injected(kit, 's1', 4)).toBe('');
		allOk();
	});

	it('keeps the mark per session, in storage, until that session’s next completed turn', async () => {
		const { kit, plugin, allOk } = await start('conventions');
		await kit.fire('post_compaction', { session_id: 's1' });
		expect(Object.keys(plugin.stored())).toEqual(['pending:s1']);
		expect(await injected(kit, 's2', 1)).toBe('');
		await kit.fire('post_llm_call', { session_id: 's2' });
		expect(await injected(kit, 's1', 1)).not.toBe('');
		expect(Object.keys(plugin.stored())).toEqual(['pending:s1']);
		await kit.fire('post_llm_call', { session_id: 's1' });
		expect(plugin.stored()).toEqual({ 'carried:s1': { user_message: 'question 1', history_length: 2 } });
		await injected(kit, 's1', 2);
		expect(plugin.stored()).toEqual({});
		allOk();
	});

	it('follows a rotation: the mark is on the session that continues', async () => {
		const { kit, allOk } = await start('conventions');
		await kit.fire('post_compaction', { session_id: 'child', old_session_id: 'parent' });
		expect(await injected(kit, 'parent', 1)).toBe('');
		expect(await injected(kit, 'child', 1)).not.toBe('');
		allOk();
	});

	it('drops the marks of deleted sessions, with or without deleted_ids, and keeps archived ones', async () => {
		const { kit, plugin, allOk } = await start('conventions');
		for (const id of ['a', 'b', 'c', 'd', 'e']) await kit.fire('post_compaction', { session_id: id });
		await injected(kit, 'b', 1);
		await kit.fire('post_llm_call', { session_id: 'b' });
		await kit.fire('on_session_delete', { session_id: 'a', deleted_ids: ['a', 'b'] });
		await kit.fire('on_session_delete', { session_id: 'c', reason: 'empty_sweep' });
		await kit.fire('on_session_delete', { session_id: 'e', reason: 'archive' });
		expect(Object.keys(plugin.stored())).toEqual(['pending:d', 'pending:e']);
		expect(await injected(kit, 'a', 1)).toBe('');
		allOk();
	});
});

describe('static/plugins/session-index.js', () => {
	it('registers its hooks and the /index command', async () => {
		const { plugin } = await start('session-index');
		expect([...plugin.registered.hooks].sort()).toEqual(['on_session_delete', 'on_session_start', 'post_llm_call']);
		expect(plugin.registered.commands).toEqual(['index']);
	});

	it('creates an entry on start and updates it after each answer', async () => {
		const { kit, plugin, allOk } = await start('session-index');
		await kit.fire('on_session_start', { session_id: 's1' });
		expect(plugin.stored()['session:s1']).toMatchObject({ turns: 0 });
		await kit.fire('post_llm_call', { session_id: 's1', user_message: 'first' });
		await kit.fire('post_llm_call', { session_id: 's1', user_message: 'How do I rotate the API keys?' });
		expect(plugin.stored()['session:s1']).toMatchObject({ turns: 2, last_user_message_preview: 'How do I rotate the API keys?' });
		allOk();
	});

	it('drops the sidecar of every id in deleted_ids', async () => {
		const { kit, plugin, allOk } = await start('session-index');
		for (const id of ['p', 'c1', 'c2', 'other']) await kit.fire('post_llm_call', { session_id: id });
		await kit.fire('on_session_delete', { session_id: 'p', deleted_ids: ['p', 'c1', 'c2'] });
		expect(Object.keys(plugin.stored())).toEqual(['session:other']);
		allOk();
	});

	it('drops the sidecar of session_id when deleted_ids is absent', async () => {
		const { kit, plugin, allOk } = await start('session-index');
		for (const id of ['s1', 's2']) await kit.fire('post_llm_call', { session_id: id });
		await kit.fire('on_session_delete', { session_id: 's1', reason: 'empty_sweep' });
		expect(Object.keys(plugin.stored())).toEqual(['session:s2']);
		allOk();
	});

	it('keeps the entry of an archived session, flagged', async () => {
		const { kit, plugin, allOk } = await start('session-index');
		await kit.fire('post_llm_call', { session_id: 's1' });
		await kit.fire('on_session_delete', { session_id: 's1', reason: 'archive' });
		expect(plugin.stored()['session:s1']).toMatchObject({ turns: 1, archived: true });
		allOk();
	});

	it('/index shows the count and the current session’s entry', async () => {
		const { kit } = await start('session-index');
		await kit.fire('post_llm_call', { session_id: 's1', user_message: 'Where are the logs?' });
		await kit.fire('post_llm_call', { session_id: 's2' });
		const text = await kit.command('/index', { session_id: 's1' });
		expect(text).toMatch(/\b2\b/);
		expect(text).toContain('s1');
		expect(text).toContain('Where are the logs?');
		expect(await kit.command('/index', { session_id: 'new' })).toMatch(/not indexed/);
		expect(kit.calls.at(-1)).toMatchObject({ hook: '/index', outcome: 'ok', result: expect.stringMatching(/^showed \d+ chars/) });
	});
});

describe('static/plugins/whoami.js', () => {
	it('registers /whoami and no hooks', async () => {
		const { plugin } = await start('whoami');
		expect(plugin.registered).toEqual({ hooks: [], commands: ['whoami'], tools: [] });
	});

	it('answers with the caller and the session from the command context', async () => {
		const { kit } = await start('whoami');
		const text = await kit.command('/whoami', {
			session_id: 'sess-42',
			session_key: 'web:work:sess-42',
			source: { platform: 'web', user_id: 'user-9', user_name: 'Grace', chat_id: 'web:work:sess-42', thread_id: 'sess-42', profile: 'work' }
		});
		for (const part of ['sess-42', 'web:work:sess-42', 'user-9', 'Grace', 'work', 'web']) expect(text).toContain(part);
		expect(String(text).split('\n').length).toBeGreaterThan(1);
	});

	it('says so in a new chat, where there is no session yet', async () => {
		const { kit } = await start('whoami');
		const text = await kit.command('/whoami', { session_id: '', session_key: '' });
		expect(text).toContain('Session: none yet (a new chat)');
		expect(text).toContain('Session key: none yet');
	});

	it('still answers when no user invoked it (source is null)', async () => {
		const { kit } = await start('whoami');
		const text = await kit.command('/whoami', { session_id: 'sess-1', source: null });
		expect(text).toContain('sess-1');
		expect(text).toContain('not invoked by a user');
	});
});
