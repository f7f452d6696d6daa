import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { HookBus } from '../hooks/hook-bus';
import { setSessionModel } from './edit-session';
import { createSession, endSession, finalizeSession, replaceSession } from './session-lifecycle';
import type { SessionContext } from './session-context';

let db: PalimpsestDb;
let calls: Array<[string, Record<string, unknown>]>;
let ctx: SessionContext;
let hooks: HookBus;

beforeEach(() => {
	db = new PalimpsestDb(`life-${crypto.randomUUID()}`);
	calls = [];
	hooks = new HookBus();
	for (const name of ['on_session_start', 'on_session_end', 'on_session_finalize', 'on_session_reset'] as const) {
		hooks.register('spy', name, async (payload) => {
			// Hooks fire after commit: the row they name is already readable.
			const row = await db.sessions.get(payload.session_id);
			calls.push([name, { ...payload, committed: !!row }]);
		});
	}
	ctx = { db, hooks, profile: 'default', platform: 'web', now: () => 1000 };
});
afterEach(async () => {
	db.close();
	await db.delete();
});

it('announces a new session with its thread key after it is stored', async () => {
	const row = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
	await hooks.settled();
	expect(row.session_key).toBe(`web:default:${row.id}`);
	expect(calls).toEqual([
		['on_session_start', { session_id: row.id, session_key: row.session_key, platform: 'web', profile: 'default', model: 'offline-mini', committed: true }]
	]);
});

it('/new ends and finalizes the old session, starts one in the same thread, then resets', async () => {
	const old = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
	await hooks.settled();
	calls = [];
	const next = await replaceSession(ctx, old.id, 'new_session', { provider: 'offline', model: 'offline-mini', title: 'Plan B' });
	await hooks.settled();
	expect(next.session_key).toBe(old.session_key);
	expect(next.title).toBe('Plan B');
	expect(calls.map(([name]) => name)).toEqual(['on_session_end', 'on_session_finalize', 'on_session_start', 'on_session_reset']);
	expect(calls[0][1]).toMatchObject({ session_id: old.id, end_reason: 'new_session', session_key: old.session_key });
	expect(calls[3][1]).toMatchObject({ session_id: next.id, old_session_id: old.id, session_key: old.session_key });
	expect(await db.sessions.get(old.id)).toMatchObject({ ended_at: 1000, end_reason: 'new_session' });
});

it('never waits for a slow observer: the session is created while its hook still runs', async () => {
	let release = () => {};
	hooks.register('slow', 'on_session_start', () => new Promise<void>((resolve) => (release = resolve)));
	const row = await createSession(ctx, { provider: 'offline', model: 'm' });
	expect(await db.sessions.get(row.id)).toBeDefined();
	await endSession(ctx, row.id, 'exit');
	// The end event queues behind the slow start callback: plugins see events in order.
	expect(calls.map(([name]) => name)).toEqual(['on_session_start']);
	release();
	await hooks.settled();
	expect(calls.map(([name]) => name)).toEqual(['on_session_start', 'on_session_end']);
});

it('ends a session only once and finalizes only sessions that exist', async () => {
	const row = await createSession(ctx, { provider: 'offline', model: 'm' });
	await hooks.settled();
	calls = [];
	await endSession(ctx, row.id, 'exit');
	await endSession(ctx, row.id, 'exit');
	await finalizeSession(ctx, 'missing');
	await hooks.settled();
	expect(calls.map(([name]) => name)).toEqual(['on_session_end']);
});

it("keeps what the session's provider is called, replaced when another model is chosen and gone with the offline model", async () => {
	const row = await createSession(ctx, { provider: 'p1', model: 'mock-model', named_provider: { id: 'p1', name: 'Work server' } });
	expect((await db.sessions.get(row.id))?.named_provider).toEqual({ id: 'p1', name: 'Work server' });
	await setSessionModel(ctx, row.id, 'p2', 'mock-large', { id: 'p2', name: 'Home lab' });
	expect(await db.sessions.get(row.id)).toMatchObject({ provider: 'p2', model: 'mock-large', named_provider: { id: 'p2', name: 'Home lab' } });
	await setSessionModel(ctx, row.id, 'offline', 'offline-mini');
	expect(await db.sessions.get(row.id)).not.toHaveProperty('named_provider');
});
