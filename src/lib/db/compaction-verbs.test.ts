import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitCompaction, CompactionRaceError, listActiveMessages, READ_PAGE } from './compaction-verbs';
import { PalimpsestDb } from './database';
import { appendMessages, listMessages, updateMessage, type NewMessage } from './message-verbs';
import { NO_COMPACTION_STATE } from './schema';
import { testSessionRow } from './test-session-row';
import { insertSession } from './session-verbs';

let db: PalimpsestDb;
const ID = 's1';

beforeEach(async () => {
	db = new PalimpsestDb(`compaction-verbs-${crypto.randomUUID()}`);
	await insertSession(db, testSessionRow(ID, { title: 'Long', title_source: 'user' }));

	const rows: NewMessage[] = Array.from({ length: 260 }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', kind: 'message', status: 'complete', content: `message ${i}`, created_at: 1 }));
	await appendMessages(db, ID, rows);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const summary: NewMessage = { id: 'summary', role: 'user', kind: 'summary', status: 'complete', content: 'Summary', created_at: 2 };
const commit = (removed: number[]) => ({ sessionId: ID, compactionId: 'c1', removed, inserted: [{ row: summary, before: 258 }], compaction: { ...NO_COMPACTION_STATE }, tokenEstimate: 10, now: 2 });
const seqs = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('commitCompaction', () => {
	it('takes every removed row of a long session out of the context and keeps it readable', async () => {
		await commitCompaction(db, commit(seqs(258)));
		const rows = await listMessages(db, ID);
		expect(rows.filter((row) => row.active === 0)).toHaveLength(258);
		expect(rows.filter((row) => row.active === 0).every((row) => row.compacted_by === 'c1' && row.content.startsWith('message'))).toBe(true);
		expect(rows.filter((row) => row.active === 1).map((row) => row.id)).toEqual(['summary', 'm258', 'm259']);
	});

	it('changes nothing when any removed row, even one of the last, left the context meanwhile', async () => {
		await updateMessage(db, [ID, 250], { active: 0, compacted_by: 'elsewhere' });
		await expect(commitCompaction(db, commit(seqs(258)))).rejects.toBeInstanceOf(CompactionRaceError);
		const rows = await listMessages(db, ID);
		expect(rows.filter((row) => row.active === 0).map((row) => [row.seq, row.compacted_by])).toEqual([[250, 'elsewhere']]);
		expect(rows.some((row) => row.kind === 'summary')).toBe(false);
	});
});

describe('listActiveMessages', () => {
	it('reads every live row of a session longer than one read, in order, with rows placed between others', async () => {
		expect(260).toBeGreaterThan(2 * READ_PAGE);
		// A compaction in the middle: rows 100–199 leave the context and a summary takes their place.
		await commitCompaction(db, { ...commit(seqs(100).map((i) => i + 100)), inserted: [{ row: summary, before: 200 }] });
		const rows = await listActiveMessages(db, ID);
		const expected = [...seqs(100).map((i) => `m${i}`), 'summary', ...seqs(60).map((i) => `m${i + 200}`)];
		expect(rows.map((row) => row.id)).toEqual(expected);
	});

	it('reads a session of exactly one read, and a session with no rows', async () => {
		await insertSession(db, testSessionRow('s2', { title: 'One read', title_source: 'user' }));
		await appendMessages(db, 's2', Array.from({ length: READ_PAGE }, (_, i) => ({ id: `n${i}`, role: 'user', kind: 'message', status: 'complete', content: `n ${i}`, created_at: 1 })));
		expect((await listActiveMessages(db, 's2')).map((row) => row.seq)).toEqual(seqs(READ_PAGE));
		expect(await listActiveMessages(db, 'no-such-session')).toEqual([]);
	});
});
