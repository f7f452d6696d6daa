import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Dexie, PalimpsestDb } from './database';
import { measureSessions } from './measure-sessions';
import type { MessageRow, SessionRow } from './schema';
import { countSessionGroups, listFirstSessions, listSessionOrder, readSessionRows } from './session-order';
import { testPosition } from './test-position';

let db: PalimpsestDb;
afterEach(async () => {
	db.close();
	await Dexie.delete(db.name);
});

function session(id: string, extra: Partial<SessionRow> = {}): SessionRow {
	return {
		id, profile: 'default', title: `Title of ${id}`, title_source: 'user', session_key: `web:default:${id}`,
		created_at: 1, last_activity_at: 1, ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null,
		archived: 0, pinned: 0, provider: 'offline', model: 'offline-mini', message_count: 0, token_estimate: 0, next_seq: 0,
		compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }, ...extra
	};
}

function message(sessionId: string, seq: number, content: string, extra: Partial<MessageRow> = {}): MessageRow {
	return { session_id: sessionId, seq, position: testPosition(seq), id: `${sessionId}-${seq}`, role: 'user', content, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1, ...extra };
}

async function open(): Promise<PalimpsestDb> {
	db = new PalimpsestDb(`test-${crypto.randomUUID()}`);
	await db.sessions.bulkAdd([
		session('old', { last_activity_at: 10 }),
		session('pinned-old', { last_activity_at: 5, pinned: 1 }),
		session('new', { last_activity_at: 30 }),
		session('gone', { last_activity_at: 40, archived: 1 }),
		session('mid', { last_activity_at: 20 })
	]);
	return db;
}

describe('the sidebar order', () => {
	it('lists ids pinned first, then most recent, without archived sessions; the first rows follow the same order', async () => {
		await open();
		expect(await listSessionOrder(db)).toEqual(['pinned-old', 'new', 'mid', 'old']);
		expect((await listFirstSessions(db, 2)).map((row) => row.id)).toEqual(['pinned-old', 'new']);
	});

	it('counts the groups of the list from the index: pinned, then by last activity, archived left out', async () => {
		await open();
		// old 10, mid 20, new 30 (archived 40 and pinned 5 are no part of the dated groups).
		expect(await countSessionGroups(db, { today: 30, yesterday: 20, week: 11 })).toEqual({ pinned: 1, today: 1, yesterday: 1, week: 0, older: 1 });
		expect(await countSessionGroups(db, { today: 100, yesterday: 90, week: 0 })).toEqual({ pinned: 1, today: 0, yesterday: 0, week: 3, older: 0 });
	});

	it('reads only the rows asked for, in the order asked, leaving out those that are gone', async () => {
		await open();
		expect((await readSessionRows(db, ['old', 'missing', 'new'])).map((row) => row.id)).toEqual(['old', 'new']);
		expect(await readSessionRows(db, [])).toEqual([]);
	});
});

describe('measureSessions', () => {
	it('adds up every stored message of each session, compacted ones too, largest first', async () => {
		await open();
		await db.messages.bulkAdd([
			message('old', 0, 'x'.repeat(500)),
			message('old', 1, 'y'.repeat(600), { active: 0, compacted_by: 'c1' }),
			message('new', 0, 'z'.repeat(300), { tool_calls: [{ id: 't', name: 'search', arguments: '{"q":"a"}' }] }),
			message('mid', 0, 'short')
		]);
		const sizes = await measureSessions(db, 2);
		expect(sizes.map((s) => s.id)).toEqual(['old', 'new', 'mid', 'pinned-old', 'gone']);
		expect(sizes[0]).toMatchObject({ messages: 2, chars: 1100, title: 'Title of old', archived: 0 });
		expect(sizes[1].chars).toBeGreaterThan(300);
		expect(sizes[4]).toMatchObject({ id: 'gone', messages: 0, chars: 0, archived: 1 });
	});
});
