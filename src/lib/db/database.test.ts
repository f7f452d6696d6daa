import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { PalimpsestDb, SCHEMA_V1, SCHEMA_V11, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8, SCHEMA_V9 } from './database';
import { deriveConversation } from './conversation';
import { listActiveMessages } from './compaction-verbs';
import { showVersion } from './version-verbs';
import { isPosition, positionTime } from '../sync/position';
import { appendMessages, listMessages, markInterruptedMessages } from './message-verbs';
import { listSessions, renameSession, setPinned } from './session-verbs';
import type { MessageRow, SessionRow } from './schema';
import { testSessionRow } from './test-session-row';

let name = '';
afterEach(async () => {
	await Dexie.delete(name);
});

function fresh(): string {
	name = `test-${crypto.randomUUID()}`;
	return name;
}

const session = testSessionRow;

describe('schema migration', () => {
	it('opens a version 1 database, keeps its rows, fills the version 2 flags and indexes status', async () => {
		const dbName = fresh();
		const v1 = new Dexie(dbName);
		v1.version(1).stores(SCHEMA_V1);
		const old = session('s1') as Partial<SessionRow>;
		delete old.archived;
		delete old.pinned;
		delete old.title_source;
		await v1.table('sessions').add(old);
		await v1.table('messages').add({ session_id: 's1', seq: 0, id: 'm1', role: 'user', content: 'hi', status: 'complete' });
		v1.close();

		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		expect(await db.messages.where('status').equals('streaming').count()).toBe(0);
		const row = await db.sessions.get('s1');
		expect(row).toMatchObject({ archived: 0, pinned: 0, title_source: 'auto' });
		expect(await listSessions(db)).toHaveLength(1);
		expect((await listMessages(db, 's1'))[0].content).toBe('hi');
		await db.plugins.add({
			id: 'p', url: '/p.js', position: 0, enabled: 1, pinned_sha256: null, cached_source: null,
			cached_sha256: null, manifest: null, last_error: null, added_at: 1
		});
		expect(await db.plugins.count()).toBe(1);
		db.close();
	});
});

describe('schema migration from version 2', () => {
	it('indexes the status of messages written at version 2', async () => {
		const dbName = fresh();
		const v2 = new Dexie(dbName);
		v2.version(2).stores(SCHEMA_V2);
		await v2.table('sessions').add(session('s1'));
		await v2.table('messages').bulkAdd([
			{ session_id: 's1', seq: 0, id: 'u', role: 'user', content: 'hi', status: 'complete', kind: 'message', active: 1 },
			{ session_id: 's1', seq: 1, id: 'a', role: 'assistant', content: 'half', status: 'streaming', kind: 'message', active: 1 }
		]);
		v2.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		expect(await db.messages.where('status').equals('streaming').primaryKeys()).toEqual([['s1', 1]]);
		expect(await markInterruptedMessages(db)).toBe(1);
		expect((await listMessages(db, 's1'))[1]).toMatchObject({ status: 'incomplete', content: 'half' });
		db.close();
	});
});

describe('schema migration from version 3', () => {
	it('records the owning profile and an empty compaction state, and reads active rows by index', async () => {
		const dbName = `palimpsest-work-${crypto.randomUUID()}`;
		name = dbName;
		const v3 = new Dexie(dbName);
		v3.version(3).stores(SCHEMA_V3);
		const old = session('s1') as Partial<SessionRow>;
		delete old.profile;
		delete old.compaction;
		await v3.table('sessions').add(old);
		await v3.table('messages').bulkAdd([
			{ session_id: 's1', seq: 0, id: 'a', role: 'user', content: 'old', status: 'complete', kind: 'message', active: 0 },
			{ session_id: 's1', seq: 1, id: 'b', role: 'user', content: 'live', status: 'complete', kind: 'message', active: 1 }
		]);
		v3.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(await db.sessions.get('s1')).toMatchObject({
			profile: dbName.slice('palimpsest-'.length),
			compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
		});
		const live = await db.messages.where('[session_id+active+seq]').between(['s1', 1, Dexie.minKey], ['s1', 1, Dexie.maxKey]).toArray();
		expect(live.map((row) => row.id)).toEqual(['b']);
		expect(await db.receipts.count()).toBe(0);
		db.close();
	});
});

describe('schema version 5', () => {
	it('keeps a version 4 database whole and adds the kept plugin log, read by plugin', async () => {
		const dbName = `palimpsest-work-${crypto.randomUUID()}`;
		name = dbName;
		const v4 = new Dexie(dbName);
		v4.version(4).stores(SCHEMA_V4);
		await v4.table('sessions').add(session('s1'));
		await v4.table('plugin_kv').add({ plugin_id: 'p', key: 'k', value: 1 });
		v4.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(await db.sessions.get('s1')).toMatchObject({ id: 's1' });
		expect(await db.plugin_kv.get(['p', 'k'])).toMatchObject({ value: 1 });
		await db.plugin_log.bulkAdd([
			{ plugin_id: 'p', at: 1, level: 'info', text: 'one' },
			{ plugin_id: 'q', at: 2, level: 'warn', text: 'other' }
		]);
		const mine = await db.plugin_log.where('[plugin_id+id]').between(['p', Dexie.minKey], ['p', Dexie.maxKey]).toArray();
		expect(mine.map((row) => row.text)).toEqual(['one']);
		db.close();
	});
});

describe('schema version 6', () => {
	it('keeps a version 5 database whole and adds an empty search index table', async () => {
		const dbName = fresh();
		const v5 = new Dexie(dbName);
		v5.version(5).stores(SCHEMA_V5);
		await v5.table('sessions').add(session('s1'));
		await v5.table('messages').add({ session_id: 's1', seq: 0, id: 'm', role: 'user', content: 'hi', status: 'complete', kind: 'message', active: 1 });
		v5.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		expect(await db.sessions.get('s1')).toMatchObject({ id: 's1' });
		expect(await db.messages.count()).toBe(1);
		expect(await db.search_index.count()).toBe(0);
		await db.search_index.put({ key: 'messages', data: '{}', at: 1 });
		expect(await db.search_index.get('messages')).toMatchObject({ data: '{}' });
		db.close();
	});
});

describe('schema version 7', () => {
	it('indexes answers by the frame of their request and drops the frames no answer refers to', async () => {
		const dbName = fresh();
		const v6 = new Dexie(dbName);
		v6.version(6).stores(SCHEMA_V6);
		await v6.table('sessions').bulkAdd([session('s1'), session('s2')]);
		const sent = (frame: string) => ({ frame, seqs: [[0, 1]], user_seq: 0, provider: 'offline', model: 'm', body_hash: 'h' });
		const answer = { role: 'assistant', content: 'a', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1 };
		await v6.table('messages').bulkAdd([
			{ ...answer, session_id: 's1', seq: 1, id: 'a1', sent: sent('request-frame:used') },
			{ ...answer, session_id: 's2', seq: 1, id: 'a2', sent: sent('request-frame:used') },
			{ ...answer, session_id: 's2', seq: 2, id: 'a3' }
		]);
		await v6.table('settings').bulkAdd([
			{ key: 'request-frame:used', value: { system: 'kept' } },
			{ key: 'request-frame:left-by-a-deletion', value: { system: 'a deleted conversation' } },
			{ key: 'theme', value: 'dark' }
		]);
		v6.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		expect((await db.settings.toCollection().primaryKeys()).sort()).toEqual(['request-frame:used', 'theme']);
		expect(await db.messages.where('sent.frame').equals('request-frame:used').primaryKeys()).toEqual([['s1', 1], ['s2', 1]]);
		expect(await db.messages.where('[session_id+sent.frame]').between(['s2', Dexie.minKey], ['s2', Dexie.maxKey]).primaryKeys()).toEqual([['s2', 1]]);
		db.close();
	});
});

describe('schema version 8', () => {
	it('moves what each plugin stores, in bytes, off its row into plugin_usage', async () => {
		const dbName = fresh();
		const v7 = new Dexie(dbName);
		v7.version(7).stores(SCHEMA_V7);
		const plugin = { url: 'https://x.test/a.js', enabled: 1, pinned_sha256: null, cached_source: 'code', cached_sha256: null, manifest: null, last_error: null, added_at: 1 };
		await v7.table('plugins').bulkAdd([
			{ ...plugin, id: 'counted', position: 0, storage_bytes: 1234 },
			{ ...plugin, id: 'never-wrote', position: 1 }
		]);
		v7.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		expect(await db.plugin_usage.toArray()).toEqual([{ plugin_id: 'counted', storage_bytes: 1234 }]);
		expect(await db.plugins.get('counted')).not.toHaveProperty('storage_bytes');
		expect(await db.plugins.get('never-wrote')).toMatchObject({ cached_source: 'code' });
		db.close();
	});
});

describe('schema version 9', () => {
	it('keeps a version 8 database whole and adds an empty table for the bytes of images, keyed by session', async () => {
		const dbName = fresh();
		const v8 = new Dexie(dbName);
		v8.version(8).stores(SCHEMA_V8);
		await v8.table('sessions').add(session('s1'));
		await v8.table('messages').add({ session_id: 's1', seq: 0, id: 'm', role: 'user', content: 'kept', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1 });
		v8.close();
		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		expect((await db.messages.toArray()).map((row) => row.content)).toEqual(['kept']);
		expect(await db.blobs.count()).toBe(0);
		await db.blobs.add({ session_id: 's1', id: 'i', type: 'image/png', data: new Blob([new Uint8Array([1])]) });
		expect(await db.blobs.where('[session_id+id]').between(['s1', Dexie.minKey], ['s1', Dexie.maxKey]).primaryKeys()).toEqual([['s1', 'i']]);
		db.close();
	});
});

describe('schema version 10', () => {
	it('gives every message of a version 9 profile a position, per session in seq order, from its time, and finds each by it', async () => {
		const dbName = fresh();
		const v9 = new Dexie(dbName);
		v9.version(9).stores(SCHEMA_V9);
		const T = Date.UTC(2025, 5, 1);
		const row = (session_id: string, seq: number, created_at: number, extra: Partial<MessageRow> = {}) =>
			({ session_id, seq, id: `${session_id}-${seq}`, role: 'user', content: `${session_id} ${seq}`, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at, ...extra });
		await v9.table('sessions').bulkAdd([session('s1', { next_seq: 3, message_count: 4 }), session('s2'), session('s3')]);
		const rows = [
			row('s1', 0, T),
			row('s1', 1, T + 1_000, { active: 0, compacted_by: 'c1' }),
			// A summary written later, placed between: it takes its place in seq order.
			row('s1', 1.5, T + 9_000, { kind: 'summary' }),
			row('s1', 2, T + 2_000),
			// Times that go backwards (a clock set back) and repeat still give ascending positions.
			row('s2', 0, T + 5_000),
			row('s2', 1, T + 4_000),
			row('s2', 2, T + 4_000),
			row('s3', 0, T + 7_000, { status: 'streaming' })
		];
		// Written out of order: the upgrade follows seq, not the order rows were stored in.
		await v9.table('messages').bulkAdd([...rows].reverse());
		v9.close();

		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		const after = await db.messages.toArray();
		expect(after.map(({ position: _p, rank: _r, ...rest }) => rest)).toEqual(rows);
		// Each row's rank keeps the order shown: its position, as positions follow seq here.
		for (const message of after) expect(message.rank).toBe(message.position);
		for (const id of ['s1', 's2', 's3']) {
			const session = await listMessages(db, id);
			for (const message of session) expect(isPosition(message.position)).toBe(true);
			const positions = session.map((message) => message.position);
			expect(positions).toEqual([...positions].sort());
			expect(new Set(positions).size).toBe(positions.length);
			for (const message of session) {
				expect(await db.messages.where('[session_id+position]').equals([id, message.position]).first()).toEqual(message);
			}
		}
		const s1 = await listMessages(db, 's1');
		expect(s1.map((message) => positionTime(message.position))).toEqual([T, T + 1_000, T + 9_000, T + 9_000]);
		expect(positionTime((await listMessages(db, 's2'))[0].position)).toBe(T + 5_000);
		// Appending goes on after the last position, whatever the clock says.
		const [next] = await appendMessages(db, 's1', [{ id: 'n', role: 'user', content: 'next', status: 'complete', kind: 'message', created_at: T }], T);
		expect(next.position > s1.at(-1)!.position).toBe(true);
		db.close();
	});
});

describe('schema version 12', () => {
	it('gives every row of a version 11 profile a rank in the order shown and the version it belongs to, keeps what is shown, and keeps what sync knew', async () => {
		const dbName = fresh();
		const v11 = new Dexie(dbName);
		v11.version(11).stores(SCHEMA_V11);
		const T = Date.UTC(2026, 0, 1);
		const at = (n: number) => String(n).padStart(26, '0');
		const row = (seq: number, position: string, content: string, extra: Partial<MessageRow> = {}) =>
			({ session_id: 's1', seq, position, id: `m${seq}`, role: 'user', content, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: T, ...extra });
		// Edited at seq 1 (q2 → q2'); compacted (q1, a1 folded into a summary written later, placed between); a row inactive for no recorded reason.
		const rows = [
			row(0, at(100), 'q1', { active: 0, compacted_by: 'c1' }),
			row(0.5, at(900), 'summary', { kind: 'summary', compaction: { id: 'c1', kind: 'summarize', reason: 'manual', before_tokens: 9, after_tokens: 1, messages_removed: 1, at: T } }),
			row(1, at(200), 'a1', { role: 'assistant' }),
			row(2, at(300), 'q2', { active: 0, shelved: { after: 1, version: 1 } }),
			row(3, at(400), "q2'"),
			row(4, at(500), 'stray', { active: 0 })
		];
		await v11.table('sessions').add(session('s1', { next_seq: 5, message_count: 6, versions: [{ after: 1, shown: 2, count: 2 }] }));
		await v11.table('messages').bulkAdd(rows);
		await v11.table('sync_docs').bulkAdd([
			{ id: 'session:s1', kind: 'session', session_id: 's1', rev: '3-a', edit: 1, dirty: 0, refused: 0, doc: { session_id: 's1' }, seen: 'x' },
			{ id: `msg:s1:${at(100)}`, kind: 'message', session_id: 's1', position: at(100), rev: '1-b', edit: 2, dirty: 0, refused: 0 },
			{ id: `msg:s1:${at(400)}`, kind: 'message', session_id: 's1', position: at(400), rev: null, edit: 3, dirty: 1, refused: 0, doc: {} },
			{ id: `msg:s2:${at(100)}`, kind: 'message-held', session_id: 's2', position: at(100), rev: '1-c', edit: 0, dirty: 0, refused: 0, doc: {} }
		]);
		await v11.table('sync_meta').put({ key: 'checkpoint', value: '42' });
		v11.close();

		const db = new PalimpsestDb(dbName);
		await db.open();
		expect(db.verno).toBe(14);
		const after = await listMessages(db, 's1');
		// Nothing lost, nothing moved: the order shown stays, and ranks sort the rows in it.
		expect(after.map((message) => message.content)).toEqual(rows.map((message) => message.content));
		const ranks = after.map((message) => message.rank!);
		expect(ranks).toEqual([...ranks].sort());
		expect(ranks[0]).toBe(at(100));
		expect((await listActiveMessages(db, 's1')).map((message) => message.content)).toEqual(['summary', 'a1', "q2'"]);
		const upgraded = (await db.sessions.get('s1'))!;
		expect(upgraded.versions).toEqual([{ after: 1, shown: 2, count: 2 }]);
		const derived = deriveConversation(upgraded.version_shown, after);
		expect(after.map((message) => message.active)).toEqual(derived.rows.map((state) => state.active));
		// The versions still switch, as before.
		await showVersion(db, 's1', 1, 1);
		expect((await listActiveMessages(db, 's1')).map((message) => message.content)).toEqual(['summary', 'a1', 'q2']);
		// Sync keeps each revision it knew and the session's document; what it had not sent, it sends again.
		const docs = await db.sync_docs.toArray();
		expect(docs.map((doc) => [doc.id.slice(0, 7), doc.kind, doc.rev, doc.legacy])).toEqual([
			['msg:s1:', 'message', '1-b', 1],
			['session', 'session', '3-a', 1]
		]);
		expect(await db.sync_meta.get('checkpoint')).toBeUndefined();
		db.close();
	});
});

describe('message verbs', () => {
	it('appends with sequential seqs, counts, and titles the session from the first user message', async () => {
		const db = new PalimpsestDb(fresh());
		await db.sessions.add(session('s1'));
		const base = { status: 'complete', kind: 'message', created_at: 5 } as const;
		await appendMessages(db, 's1', [
			{ ...base, id: 'a', role: 'user', content: 'How do   I parse\nSSE streams?' },
			{ ...base, id: 'b', role: 'assistant', content: 'Like this.' }
		], 10);
		await appendMessages(db, 's1', [{ ...base, id: 'c', role: 'user', content: 'Second' }], 20);
		expect((await db.sessions.get('s1'))?.title_source).toBe('message');
		const rows = await listMessages(db, 's1');
		expect(rows.map((r) => [r.seq, r.id])).toEqual([[0, 'a'], [1, 'b'], [2, 'c']]);
		const s = await db.sessions.get('s1');
		expect(s).toMatchObject({ title: 'How do I parse SSE streams?', message_count: 3, next_seq: 3, last_activity_at: 20 });
		db.close();
	});

	it('keeps a user-given title', async () => {
		const db = new PalimpsestDb(fresh());
		await db.sessions.add(session('s1'));
		await renameSession(db, 's1', '  My plan ');
		await appendMessages(db, 's1', [{ status: 'complete', kind: 'message', created_at: 1, id: 'a', role: 'user', content: 'hello' }]);
		expect((await db.sessions.get('s1'))?.title).toBe('My plan');
		await expect(renameSession(db, 's1', '   ')).rejects.toThrow(/empty/);
		db.close();
	});

	it('marks answers left streaming as incomplete, except for busy sessions', async () => {
		const db = new PalimpsestDb(fresh());
		await db.sessions.bulkAdd([session('s1'), session('s2')]);
		const streaming = { status: 'streaming', kind: 'message', created_at: 1, role: 'assistant', content: 'partial' } as const;
		await appendMessages(db, 's1', [{ ...streaming, id: 'a' }]);
		await appendMessages(db, 's2', [{ ...streaming, id: 'b' }]);
		expect(await markInterruptedMessages(db, new Set(['s2']))).toBe(1);
		expect((await listMessages(db, 's1'))[0]).toMatchObject({ status: 'incomplete', content: 'partial' });
		expect((await listMessages(db, 's2'))[0].status).toBe('streaming');
		db.close();
	});
});

it('titles a session from its first message even when a command came first', async () => {
	const db = new PalimpsestDb(fresh());
	await db.sessions.add(session('s1'));
	await appendMessages(db, 's1', [
		{ status: 'complete', kind: 'command', created_at: 1, id: 'c', role: 'user', content: '/usage' },
		{ status: 'complete', kind: 'command', created_at: 1, id: 'o', role: 'assistant', content: '2 messages' }
	]);
	expect((await db.sessions.get('s1'))?.title).toBe('New session');
	await appendMessages(db, 's1', [{ status: 'complete', kind: 'message', created_at: 1, id: 'm', role: 'user', content: 'Tell me about octopuses' }]);
	expect((await db.sessions.get('s1'))?.title).toBe('Tell me about octopuses');
	db.close();
});

describe('session list', () => {
	it('lists pinned first, then newest, and appends messages', async () => {
		const db = new PalimpsestDb(fresh());
		await db.sessions.bulkAdd([
			session('old', { last_activity_at: 1, title: 'Old notes' }),
			session('new', { last_activity_at: 3, title: 'Recent' }),
			session('mid', { last_activity_at: 2, title: 'Middle' })
		]);
		await setPinned(db, 'old', true);
		expect((await listSessions(db)).map((s) => s.id)).toEqual(['old', 'new', 'mid']);
		await appendMessages(db, 'mid', [{ status: 'complete', kind: 'message', created_at: 1, id: 'x', role: 'user', content: 'Tell me about Quokkas' }]);
		expect((await listMessages(db, 'mid'))[0].content).toBe('Tell me about Quokkas');
		db.close();
	});
});
