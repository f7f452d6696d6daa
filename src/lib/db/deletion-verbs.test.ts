import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from './database';
import { listLeftoverMessageSessions } from './deletion-verbs';
import type { MessageRow, SessionRow } from './schema';
import { testPosition } from './test-position';

let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`leftovers-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const rows = (sessionId: string, count: number): MessageRow[] =>
	Array.from({ length: count }, (_, seq) => ({ session_id: sessionId, seq, position: testPosition(seq), id: `${sessionId}-${seq}`, role: 'user', content: 'x', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: 1 }));

/** Sessions with a row and `count` messages each, and sessions with messages only. */
async function seed(withRow: Array<[string, number]>, leftovers: Array<[string, number]>): Promise<void> {
	await db.sessions.bulkAdd(withRow.map(([id]) => ({ id }) as SessionRow));
	await db.messages.bulkAdd([...withRow, ...leftovers].flatMap(([id, count]) => rows(id, count)));
}

describe('listLeftoverMessageSessions', () => {
	it('finds every session that has messages but no row, among many short sessions', async () => {
		const sessions = Array.from({ length: 3000 }, (_, i): [string, number] => [`s-${String(i).padStart(5, '0')}`, 1 + (i % 4)]);
		// Before the first session, between two, at a likely page boundary, and after the last.
		const leftovers: Array<[string, number]> = [['a-first', 2], ['s-00010x', 1], ['s-00700x', 3], ['s-02999x', 1], ['z-last', 5]];
		await seed(sessions, leftovers);
		expect(await listLeftoverMessageSessions(db)).toEqual(['a-first', 's-00010x', 's-00700x', 's-02999x', 'z-last']);
	});

	it('finds them among a few long sessions, and nothing where every session has its row', async () => {
		await seed(
			[
				['long-1', 700],
				['long-3', 1200],
				['long-5', 40]
			],
			[
				['long-2', 900],
				['long-4', 1]
			]
		);
		expect(await listLeftoverMessageSessions(db)).toEqual(['long-2', 'long-4']);
		await db.sessions.bulkAdd([{ id: 'long-2' }, { id: 'long-4' }] as SessionRow[]);
		expect(await listLeftoverMessageSessions(db)).toEqual([]);
	});
});
