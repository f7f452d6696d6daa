import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Dexie, PalimpsestDb } from '../db/database';
import type { MessageRow, SessionRow } from '../db/schema';
import { IndexKeeper } from './index-keeper';
import { testPosition } from '../db/test-position';

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
	return { session_id: sessionId, seq, position: testPosition(seq), id: `${sessionId}-${seq}`, role: 'user', content, status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1 };
}

async function seeded(): Promise<PalimpsestDb> {
	db = new PalimpsestDb(`test-${crypto.randomUUID()}`);
	await db.sessions.bulkAdd([session('a', 'Garden plans'), session('b', 'Budget review')]);
	await db.messages.bulkAdd([message('a', 0, 'tomatoes beside the marigolds'), message('b', 0, 'the invoice from the plumber'), message('b', 1, 'marigolds for the office')]);
	return db;
}

const found = (query: string) => keeper!.index.search(query).map((hit) => hit.sessionId).sort();

// Building, following commits, saving and rebuilding a damaged index are covered through the
// worker's API in sessions/search-api.test.ts; this is what the snapshot's list of changes adds.
describe('the search index keeper', () => {
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
