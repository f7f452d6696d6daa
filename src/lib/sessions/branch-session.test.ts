import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { HookBus } from '../hooks/hook-bus';
import { branchSession } from './branch-session';
import { deleteSessions } from './delete-sessions';
import { createSession } from './session-lifecycle';
import type { SessionContext } from './session-context';

let db: PalimpsestDb;
let ctx: SessionContext;
let started: string[];

beforeEach(() => {
	db = new PalimpsestDb(`branch-${crypto.randomUUID()}`);
	const hooks = new HookBus();
	started = [];
	hooks.register('spy', 'on_session_start', ({ session_id }) => void started.push(session_id));
	ctx = { db, hooks, profile: 'default', platform: 'web', now: () => 5000 };
});
afterEach(() => db.delete());

const base = { status: 'complete', kind: 'message', created_at: 1 } as const;

it('copies the history up to the message into a new branch session, and announces it', async () => {
	const source = await createSession(ctx, { provider: 'p1', model: 'mock-model', named_provider: { id: 'p1', name: 'Work server' }, title: 'Trip' });
	await appendMessages(db, source.id, [
		{ ...base, id: 'q1', role: 'user', content: 'Where to?' },
		{ ...base, id: 'a1', role: 'assistant', content: 'Lisbon', tool_calls: [{ id: 'call-1', name: 'weather', arguments: '{}' }] },
		{ ...base, id: 't1', role: 'tool', content: 'sunny', tool_call_id: 'call-1' },
		{ ...base, id: 'q2', role: 'user', content: 'And after?' }
	]);
	const branch = await branchSession(ctx, source.id, 1);
	await (ctx.hooks as HookBus).settled();
	// The same model, and what its provider is called, should it go away.
	expect(branch).toMatchObject({ parent_session_id: source.id, parent_kind: 'branch', title: 'Trip (branch)', message_count: 3, next_seq: 3, provider: 'p1', named_provider: { id: 'p1', name: 'Work server' } });
	expect(branch.session_key).not.toBe(source.session_key);
	const copied = await listMessages(db, branch.id);
	// The tool result answering a copied call comes along; what followed does not.
	expect(copied.map((m) => m.content)).toEqual(['Where to?', 'Lisbon', 'sunny']);
	expect(copied.every((m) => m.session_id === branch.id && !['q1', 'a1', 't1'].includes(m.id))).toBe(true);
	expect(await listMessages(db, source.id)).toHaveLength(4);
	expect(started).toEqual([source.id, branch.id]);

	// Deleting the source keeps the branch, detached.
	await deleteSessions(ctx, [source.id]);
	expect(await db.sessions.get(branch.id)).toMatchObject({ parent_session_id: null, parent_kind: null });
	expect(await listMessages(db, branch.id)).toHaveLength(3);
});

it("keeps the chat's own settings in the branch; a new session starts without any", async () => {
	const chat_settings = { system_prompt: 'Answer as a pirate.', top_p: 0.5, plugin_tools_off: ['clock'] };
	const source = await createSession(ctx, { provider: 'offline', model: 'offline-mini', chat_settings });
	await appendMessages(db, source.id, [{ ...base, id: 'q1', role: 'user', content: 'Ahoy' }]);
	expect((await branchSession(ctx, source.id, 0)).chat_settings).toEqual(chat_settings);
	expect(await createSession(ctx, { provider: 'offline', model: 'offline-mini' })).not.toHaveProperty('chat_settings');
});

it('refuses a message that is not there', async () => {
	const source = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
	await expect(branchSession(ctx, source.id, 7)).rejects.toThrow('That message no longer exists.');
	await expect(branchSession(ctx, 'gone', 0)).rejects.toThrow('This session no longer exists.');
	expect(await db.sessions.count()).toBe(1);
});
