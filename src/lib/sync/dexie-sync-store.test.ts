// Two devices, each a profile database as the app keeps it, syncing through one database of a
// real CouchDB-compatible server: what the app's own verbs write on one appears on the other in
// the same order; concurrent edits merge; a deletion wins over a late append; a compaction
// arrives folded; arrivals fire no hook and write no receipt; settings never leave.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openProfileDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { renameSession } from '../db/session-verbs';
import { writeSettings } from '../db/settings-verbs';
import { archiveSessions } from '../sessions/archive-sessions';
import { deleteSessions } from '../sessions/delete-sessions';
import { createSession } from '../sessions/session-lifecycle';
import type { SessionContext } from '../sessions/session-context';
import { CouchClient } from './couch-client';
import { createSyncStore, type SyncStoreOptions } from './dexie-sync-store';
import { pullChanges } from './pull-changes';
import { SyncLoop } from './sync-loop';
import { useCouchDatabases } from './test-couch';

const { opened, newDatabase } = useCouchDatabases('dexie');

const DAY_MS = 24 * 60 * 60 * 1000;

/** A device: its own profile database, the app's verbs on it, and a sync loop to the server; `store` sets its store's options. */
function device(serverDb: string, name: string, store: Omit<SyncStoreOptions, 'profile'> = {}) {
	const profile = `${name}-${crypto.randomUUID()}`;
	const db = openProfileDb(profile);
	opened.push(db);
	let clock = Date.UTC(2026, 0, 1);
	const ctx: SessionContext = { db, profile, platform: 'web', now: () => (clock += 1000) };
	const [syncStore, client] = [createSyncStore(db, { profile, ...store }), new CouchClient({ url: serverDb })];
	const loop = new SyncLoop({ store: syncStore, client });
	const text = (role: 'user' | 'assistant', content: string) => ({ id: crypto.randomUUID(), role, content, status: 'complete' as const, kind: 'message' as const, created_at: clock });
	return {
		db,
		ctx,
		sync: () => loop.syncOnce(),
		/** Receives without sending first, as a long-poll that wakes before the next pass does. */
		receive: () => pullChanges({ store: syncStore, client }),
		say: (sessionId: string, ...contents: string[]) => appendMessages(db, sessionId, contents.map((content, i) => text(i % 2 ? 'assistant' : 'user', content))),
		contents: async (sessionId: string) => (await listMessages(db, sessionId)).map((row) => row.content)
	};
}

describe('two devices, each with its profile database, syncing through one server', () => {
	it('a session made on one appears on the other with its messages in order, and nothing is sent twice', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'Where to stay?', 'Alfama is central.', 'And to eat?', 'Try the bifana.');
		expect((await a.sync()).pushed).toBe(5);
		await b.sync();
		expect(await b.contents(id)).toEqual(['Where to stay?', 'Alfama is central.', 'And to eat?', 'Try the bifana.']);
		expect((await b.db.sessions.get(id))?.title).toBe((await a.db.sessions.get(id))?.title);
		expect((await a.sync()).pushed).toBe(0);
		expect((await b.sync()).pushed).toBe(0);
	});

	it('both append while apart, then both show every message in the same order', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'first');
		await a.sync();
		await b.sync();
		await a.say(id, 'from a, one', 'from a, two');
		await b.say(id, 'from b');
		for (const each of [a, b, a, b]) await each.sync();
		const [onA, onB] = [await a.contents(id), await b.contents(id)];
		expect(onA).toEqual(onB);
		expect(onA.sort()).toEqual(['first', 'from a, one', 'from a, two', 'from b'].sort());
	});

	it('a rename on one and an archive on the other both hold', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.sync();
		await b.sync();
		await renameSession(a.db, id, 'Lisbon');
		await archiveSessions(b.ctx, [id]);
		for (const each of [a, b, a, b]) await each.sync();
		for (const each of [a, b]) expect(await each.db.sessions.get(id)).toMatchObject({ title: 'Lisbon', archived: 1 });
	});

	it('messages that arrive before their session (renamed since, so later in the feed) are kept until it comes, then shown in order', async () => {
		const url = await newDatabase();
		const a = device(url, 'a');
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'one', 'two', 'three', 'four');
		await a.sync();
		await renameSession(a.db, id, 'Porto');
		await a.sync();
		// A new device reading the feed two changes a page: the messages come first, the session last.
		const b = device(url, 'b');
		const pages = new SyncLoop({ store: createSyncStore(b.db, { profile: 'b' }), client: new CouchClient({ url }), pullLimit: 2 });
		const first = await pages.syncOnce();
		expect(first.pulled).toBe(5);
		expect(await b.contents(id)).toEqual(['one', 'two', 'three', 'four']);
		expect(await b.db.sessions.get(id)).toMatchObject({ title: 'Porto', message_count: 4 });
		expect((await pages.syncOnce()).pushed).toBe(0);
	});

	it('a deletion on one wins over an append on the other: nothing comes back, and the other device fires nothing', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'hello');
		await a.sync();
		await b.sync();
		await deleteSessions(a.ctx, [id]);
		await b.say(id, 'a late reply');
		for (const each of [b, a, b, a, b]) await each.sync();
		for (const each of [a, b]) {
			expect(await each.db.sessions.get(id)).toBeUndefined();
			expect(await each.contents(id)).toEqual([]);
		}
		// The deletion was committed on a: only a wrote a receipt (and fired on_session_delete).
		expect(await a.db.receipts.count()).toBe(1);
		expect(await b.db.receipts.count()).toBe(0);
		// The server keeps the session's document with its deletion, never as CouchDB's _deleted.
		const doc = await (await fetch(`${url}/${encodeURIComponent(`session:${id}`)}`)).json();
		expect(doc.deleted_at).toEqual(expect.any(Number));
	});

	it('a deletion here that sync has not looked at yet wins over a copy of the session that arrives first', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'hello');
		await a.sync();
		await b.sync();
		await deleteSessions(a.ctx, [id]);
		await b.say(id, 'a late reply');
		await b.sync();
		await a.receive();
		expect(await a.db.sessions.get(id)).toBeUndefined();
		for (const each of [a, b, a, b]) await each.sync();
		for (const each of [a, b]) {
			expect(await each.db.sessions.get(id)).toBeUndefined();
			expect(await each.contents(id)).toEqual([]);
		}
		const doc = await (await fetch(`${url}/${encodeURIComponent(`session:${id}`)}`)).json();
		expect(doc.deleted_at).toEqual(expect.any(Number));
	});

	it('a compaction on one arrives on the other as its summary, with the messages it folds out of the context', async () => {
		const url = await newDatabase();
		const [a, b] = [device(url, 'a'), device(url, 'b')];
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const rows = await a.say(id, 'one', 'two', 'three', 'four');
		await a.sync();
		await b.sync();
		await a.db.messages.bulkPut(rows.slice(0, 2).map((row) => ({ ...row, active: 0 as const, compacted_by: 'op-1' })));
		await appendMessages(a.db, id, [
			{ id: 'summary-1', role: 'user', content: 'Summary: one, two.', status: 'complete', kind: 'summary', created_at: 5, compaction: { id: 'op-1', kind: 'summarize', reason: 'manual', before_tokens: 10, after_tokens: 4, messages_removed: 2, at: 5 } }
		]);
		await a.sync();
		await b.sync();
		const onB = await listMessages(b.db, id);
		expect(onB.filter((row) => row.active).map((row) => row.content)).toEqual(['three', 'four', 'Summary: one, two.']);
		expect(onB.filter((row) => !row.active).map((row) => [row.content, row.compacted_by])).toEqual([
			['one', 'op-1'],
			['two', 'op-1']
		]);
	});

	it('sends no setting: a secret kept in settings is in no server document', async () => {
		const url = await newDatabase();
		const a = device(url, 'a');
		await writeSettings(a.db, { providers: [{ id: 'p', api_key: 'SENTINEL-key' }], tool_servers: [{ authorization: 'SENTINEL-auth' }] } as never);
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'hello');
		await a.sync();
		const all = await (await fetch(`${url}/_all_docs?include_docs=true`)).text();
		expect(all).toContain('hello');
		expect(all).not.toContain('SENTINEL');
	});

	it("purges a deleted session's sync records once the retention period has passed, here and on the server; the other device follows", async () => {
		const url = await newDatabase();
		let now = Date.UTC(2026, 0, 1);
		const a = device(url, 'a', { now: () => now, keepDeletedDays: () => 30 });
		// The other device keeps records longer: only what arrives from a removes its own.
		const b = device(url, 'b', { now: () => now, keepDeletedDays: () => 60 });
		const { id } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		const { id: kept } = await createSession(a.ctx, { provider: 'offline', model: 'offline-mini' });
		await a.say(id, 'hello');
		await a.sync();
		await b.sync();
		await deleteSessions(a.ctx, [id]);
		await a.sync();
		await b.sync();
		const onServer = async () => (await fetch(`${url}/${encodeURIComponent(`session:${id}`)}`)).status;

		// Within the period every device may still learn of the deletion: its record stays.
		now += 29 * DAY_MS;
		await a.sync();
		expect(await onServer()).toBe(200);
		expect(await a.db.sync_docs.get(`session:${id}`)).toMatchObject({ doc: { deleted_at: expect.any(Number) } });

		now += 2 * DAY_MS;
		await a.sync();
		expect(await a.db.sync_docs.get(`session:${id}`)).toBeUndefined();
		expect(await a.db.sync_docs.where('session_id').equals(id).count()).toBe(0);
		expect(await onServer()).toBe(404);
		// A session not deleted keeps its record, however old.
		expect(await a.db.sync_docs.get(`session:${kept}`)).toBeDefined();

		// The other device takes the purge without complaint and drops its own record; nothing comes back.
		expect((await b.sync()).skipped).toEqual([]);
		expect(await b.db.sync_docs.get(`session:${id}`)).toBeUndefined();
		for (const each of [a, b, a]) expect((await each.sync()).pushed).toBe(0);
		for (const each of [a, b]) expect(await each.db.sessions.get(id)).toBeUndefined();
		expect(await onServer()).toBe(404);
	});
});
