// A deletion or a compaction committed in a tab that closed before its hook was dispatched fires
// that hook once, at the next start-up, on the device that committed it; a hook that was
// dispatched is not fired again, a tab still open dispatches its own, and another device that
// receives the deletion by sync fires nothing.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { compactionEnv, recordingBus, seedConversation } from '../agent/compaction-fixtures';
import { compactSession } from '../agent/compact-session';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { appendMessages } from '../db/message-verbs';
import type { HookBus } from '../hooks/hook-bus';
import { CouchClient } from '../sync/couch-client';
import { createSyncStore } from '../sync/dexie-sync-store';
import { SyncLoop } from '../sync/sync-loop';
import { deleteSessions } from './delete-sessions';
import { replayUnfiredHooks } from './replay-unfired-hooks';
import type { SessionContext } from './session-context';
import { createSession } from './session-lifecycle';
import { useCouchDatabases } from '../sync/test-couch';

const { opened, newDatabase } = useCouchDatabases('replay');

/** Hooks of a tab that closes right after a commit: the dispatch never happens. */
const closingTab = { notify: () => new Promise<void>(() => {}) } as unknown as HookBus;
/** At the next start-up the tab that committed is gone. */
const closed = async () => false;

function device(profile: string) {
	const db = openProfileDb(`${profile}-${crypto.randomUUID()}`);
	opened.push(db);
	const ctx = (hooks?: HookBus): SessionContext => ({ db, hooks, profile, platform: 'web' });
	return { db, ctx };
}

/** Fires what `db` owes into a fresh bus with a plugin listening; what it heard, as hook:session_id. */
async function startUp(db: PalimpsestDb, tabOpen = closed): Promise<string[]> {
	const bus = recordingBus();
	await replayUnfiredHooks(db, bus.hooks, tabOpen);
	await bus.hooks.settled();
	return bus.events.map((event) => `${event.hook}:${String(event.payload.session_id)}`);
}

describe('hooks a closed tab committed but never dispatched', () => {
	it('a deletion fires on_session_delete once at the next start-up, on this device only; the device that received it by sync fires nothing', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [device('laptop'), device('phone')];
		const loop = (db: PalimpsestDb) => new SyncLoop({ store: createSyncStore(db), client: new CouchClient({ url }) });
		const { id } = await createSession(laptop.ctx(), { provider: 'offline', model: 'offline-mini' });
		await appendMessages(laptop.db, id, [{ id: 'm1', role: 'user', content: 'Delete me later.', status: 'complete', kind: 'message', created_at: 1 }]);
		await loop(laptop.db).syncOnce();
		await loop(phone.db).syncOnce();
		expect(await phone.db.sessions.get(id)).toBeDefined();

		await deleteSessions(laptop.ctx(closingTab), [id]);
		await loop(laptop.db).syncOnce();
		await loop(phone.db).syncOnce();
		expect(await phone.db.sessions.get(id)).toBeUndefined();

		expect(await startUp(phone.db)).toEqual([]);
		expect(await startUp(laptop.db)).toEqual([`on_session_delete:${id}`]);
		expect(await startUp(laptop.db)).toEqual([]);
	});

	it('a compaction fires post_compaction once at the next start-up', async () => {
		const env = compactionEnv(device('laptop').db);
		try {
			const id = await env.newSession();
			await seedConversation(env.db, id, 12);
			const outcome = await compactSession(env.deps({ hooks: closingTab }), { sessionId: id, reason: 'manual' });
			expect(outcome.status).toBe('compacted');
			expect(await startUp(env.db)).toEqual([`post_compaction:${id}`]);
			expect(await startUp(env.db)).toEqual([]);
		} finally {
			env.counter.dispose();
		}
	});

	it('a hook that was dispatched is not fired again, and one whose tab is still open is left to that tab', async () => {
		const { db, ctx } = device('laptop');
		const [first, second] = [await createSession(ctx(), { provider: 'offline', model: 'offline-mini' }), await createSession(ctx(), { provider: 'offline', model: 'offline-mini' })];
		const bus = recordingBus();
		await deleteSessions(ctx(bus.hooks), [first.id]);
		await bus.hooks.settled();
		expect(bus.of('on_session_delete')).toHaveLength(1);
		// Cleared once dispatched.
		await vi.waitFor(async () => expect((await db.receipts.toArray()).filter((row) => row.unfired)).toEqual([]));
		expect(await startUp(db)).toEqual([]);

		await deleteSessions(ctx(closingTab), [second.id]);
		expect(await startUp(db, async () => true)).toEqual([]);
		expect(await startUp(db)).toEqual([`on_session_delete:${second.id}`]);
	});
});
