import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Dexie, PalimpsestDb } from '../db/database';
import type { MessageRow, SessionRow } from '../db/schema';
import { IndexKeeper } from './index-keeper';

let db: PalimpsestDb;
let keeper: IndexKeeper | null = null;
afterEach(async () => {
	keeper?.close();
	keeper = null;
	db.close();
	await Dexie.delete(db.name);
});

function session(id: string, title: string): SessionRow {
	return {
		id, profile: 'default', title, title_source: 'user', session_key: `web:default:${id}`, created_at: 1, last_activity_at: 1,
		ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: 'offline',
		model: 'offline-mini', message_count: 0, token_estimate: 0, next_seq: 0, compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
	};
}
function message(sessionId: string, seq: number, content: string): MessageRow {
	return { session_id: sessionId, seq, id: `${sessionId}-${seq}`, role: 'user', content, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1 };
}

async function seeded(): Promise<PalimpsestDb> {
	db = new PalimpsestDb(`test-${crypto.randomUUID()}`);
	await db.sessions.bulkAdd([session('a', 'Garden plans'), session('b', 'Budget review')]);
	await db.messages.bulkAdd([message('a', 0, 'tomatoes beside the marigolds'), message('b', 0, 'the invoice from the plumber'), message('b', 1, 'marigolds for the office')]);
	return db;
}

const found = (query: string) => keeper!.index.search(query).map((hit) => hit.sessionId).sort();

describe('the search index keeper', () => {
	it('builds the index from the stored messages, stores it, and loads the stored one next time', async () => {
		keeper = new IndexKeeper(await seeded());
		await keeper.settled();
		expect(found('marigolds')).toEqual(['a', 'b']);
		expect(found('plumber')).toEqual(['b']);
		await keeper.save();
		keeper.close();
		keeper = new IndexKeeper(db);
		await keeper.settled();
		expect(keeper.status().lastCatchUp?.sessions).toBe(0);
		expect(found('tomatoes')).toEqual(['a']);
	});

	it('rebuilds a damaged stored index instead of failing', async () => {
		await seeded();
		await db.search_index.put({ key: 'messages', data: '{"format":1,"index":{"broken', at: 1 });
		keeper = new IndexKeeper(db);
		await keeper.settled();
		expect(found('plumber')).toEqual(['b']);
	});

	it('follows committed changes: new and removed messages, deleted sessions', async () => {
		keeper = new IndexKeeper(await seeded());
		await keeper.settled();
		await db.messages.add(message('a', 1, 'a quixotic scarecrow'));
		await keeper.settled();
		expect(found('quixotic')).toEqual(['a']);
		await db.messages.delete(['b', 1]);
		await keeper.settled();
		expect(found('marigolds')).toEqual(['a']);
		await db.transaction('rw', db.sessions, db.messages, async () => {
			await db.messages.where('[session_id+seq]').between(['a', Dexie.minKey], ['a', Dexie.maxKey]).delete();
			await db.sessions.delete('a');
		});
		await keeper.settled();
		expect(found('marigolds')).toEqual([]);
		expect(found('quixotic')).toEqual([]);
		expect(found('plumber')).toEqual(['b']);
	});

	it('indexes again at the next start a session changed since the stored index, even when its row did not change', async () => {
		keeper = new IndexKeeper(await seeded());
		await keeper.settled();
		await keeper.save();
		// A message rewritten in place: the session's row stays as it was.
		await db.messages.update(['b', 0], { content: 'the receipt from the glazier' });
		await keeper.settled();
		expect(found('glazier')).toEqual(['b']);
		// Closed before the (large) index was written again.
		keeper.close();
		keeper = new IndexKeeper(db);
		await keeper.settled();
		expect(found('glazier')).toEqual(['b']);
		expect(found('plumber')).toEqual([]);
		expect(keeper.status().lastCatchUp?.sessions).toBe(1);
	});
});
