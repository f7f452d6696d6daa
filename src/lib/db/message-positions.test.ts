// Every write that creates message rows gives each a position: after everything its session
// holds (so it sorts after all this device had seen), in the order the rows are shown.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPosition, nextPosition, positionTime } from '../sync/position';
import { seededRandom } from '../sync/test-random';
import { commitCompaction, commitRotation } from './compaction-verbs';
import { insertSessionWithMessages } from './copy-verbs';
import { PalimpsestDb } from './database';
import { commitSummaryEdit } from './edit-summary-verbs';
import { appendMessages, listMessages, type NewMessage } from './message-verbs';
import { NO_COMPACTION_STATE, type MessageRow } from './schema';
import { insertSession } from './session-verbs';
import { testSessionRow } from './test-session-row';
import { commitContinueEarlier } from './undo-compaction-verbs';

const T = Date.UTC(2026, 0, 1);
let db: PalimpsestDb;

beforeEach(async () => {
	db = new PalimpsestDb(`positions-${crypto.randomUUID()}`);
	await insertSession(db, testSessionRow('s1', { title: 'Plans', title_source: 'user' }));
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const said = (id: string, created_at = T): NewMessage => ({ id, role: 'user', kind: 'message', status: 'complete', content: id, created_at });

/** The session's rows in seq order (the order shown). */
const shown = (sessionId: string) => listMessages(db, sessionId);

function expectAscending(rows: readonly MessageRow[]): void {
	for (const row of rows) expect(isPosition(row.position)).toBe(true);
	const positions = rows.map((row) => row.position);
	expect(positions).toEqual([...positions].sort());
	expect(new Set(positions).size).toBe(positions.length);
}

/** The greatest position among `rows`. */
const lastOf = (rows: readonly MessageRow[]) => rows.map((row) => row.position).sort().at(-1)!;

describe('an append', () => {
	it('takes the time of now, and positions in the order of its rows, each after the session’s last', async () => {
		await appendMessages(db, 's1', [said('a'), said('b')], T);
		await appendMessages(db, 's1', [said('c')], T + 5);
		const rows = await shown('s1');
		expectAscending(rows);
		expect(rows.map((row) => positionTime(row.position))).toEqual([T, T, T + 5]);
	});

	it('sorts after a row written by a device whose clock is ahead, and takes now again once the clock has passed it', async () => {
		await appendMessages(db, 's1', [said('here')], T);
		// A row from a device a minute ahead, as sync would store it.
		const ahead = nextPosition(undefined, T + 60_000, seededRandom(1));
		await db.messages.add({ ...said('from the phone'), session_id: 's1', seq: 1, position: ahead, active: 1, compacted_by: null });
		await db.sessions.update('s1', { next_seq: 2 });
		const [reply] = await appendMessages(db, 's1', [said('reply')], T + 10);
		expect(reply.position > ahead).toBe(true);
		expect(positionTime(reply.position)).toBe(T + 60_000);
		const [later] = await appendMessages(db, 's1', [said('later')], T + 120_000);
		expect(positionTime(later.position)).toBe(T + 120_000);
	});
});

describe('a compaction', () => {
	it('gives the rows it adds fresh positions after everything the session holds, the summary placed where the rows it folds were', async () => {
		await appendMessages(db, 's1', [said('a'), said('b'), said('c'), said('d')], T);
		const before = await shown('s1');
		const summary: NewMessage = { ...said('summary'), kind: 'summary', compaction: { id: 'c1', kind: 'summarize', reason: 'manual', before_tokens: 9, after_tokens: 3, messages_removed: 2, at: T + 1 } };
		const notice: NewMessage = { ...said('notice'), kind: 'notice' };
		const added = await commitCompaction(db, {
			sessionId: 's1',
			compactionId: 'c1',
			removed: [0, 1],
			inserted: [{ row: summary, before: 2 }, { row: notice, after: 3 }],
			compaction: { ...NO_COMPACTION_STATE },
			tokenEstimate: 3,
			now: T + 1
		});
		expectAscending(added);
		expect(added[0].position > lastOf(before)).toBe(true);
		expect((await shown('s1')).map((row) => row.id)).toEqual(['a', 'b', 'summary', 'c', 'd', 'notice']);
	});

	it('that edits its summary gives the edited summary a position after the original', async () => {
		await appendMessages(db, 's1', [said('a'), said('b')], T);
		const summary: NewMessage = { ...said('summary'), kind: 'summary', compaction: { id: 'c1', kind: 'summarize', reason: 'manual', before_tokens: 9, after_tokens: 3, messages_removed: 1, at: T + 1 } };
		const [original] = await commitCompaction(db, { sessionId: 's1', compactionId: 'c1', removed: [0], inserted: [{ row: summary, before: 1 }], compaction: { ...NO_COMPACTION_STATE }, tokenEstimate: 3, now: T + 1 });
		const edited = await commitSummaryEdit(db, 's1', 'c1', 'Shorter', T + 2);
		expect(isPosition(edited.position)).toBe(true);
		expect(edited.position > original.position).toBe(true);
	});

	it('that continues in a new session gives the new session’s rows positions of their own, in order', async () => {
		await appendMessages(db, 's1', [said('a'), said('b')], T);
		const marker = { id: 'c1', kind: 'summarize' as const, reason: 'manual' as const, before_tokens: 9, after_tokens: 3, messages_removed: 2, at: T + 1, old_session_id: 's1' };
		const child = testSessionRow('s2', { parent_session_id: 's1', parent_kind: 'compression' });
		await commitRotation(db, { parentId: 's1', endedAt: T + 1, child, rows: [{ ...said('summary', T + 1), kind: 'summary', compaction: marker }, said('b copy', T + 1)], parentCompaction: { ...NO_COMPACTION_STATE } });
		const rows = await shown('s2');
		expect(rows.map((row) => row.id)).toEqual(['summary', 'b copy']);
		expectAscending(rows);
	});
});

describe('continuing in the earlier session', () => {
	it('appends what was said since to the earlier session, after its last position', async () => {
		await appendMessages(db, 's1', [said('a'), said('b')], T);
		const marker = { id: 'c1', kind: 'summarize' as const, reason: 'manual' as const, before_tokens: 9, after_tokens: 3, messages_removed: 2, at: T + 1, old_session_id: 's1' };
		const child = testSessionRow('s2', { parent_session_id: 's1', parent_kind: 'compression' });
		await commitRotation(db, { parentId: 's1', endedAt: T + 1, child, rows: [{ ...said('summary', T + 1), kind: 'summary', compaction: marker }], parentCompaction: { ...NO_COMPACTION_STATE } });
		await appendMessages(db, 's2', [said('c', T + 2), said('d', T + 3)], T + 3);
		const earlier = await shown('s1');
		// The earlier session's clock was ahead: what comes back still sorts after it.
		await db.messages.update(['s1', 1], { position: nextPosition(earlier[0].position, T + 3_600_000, seededRandom(2)) });
		await commitContinueEarlier(db, 's2', 'c1', T + 4);
		const rows = await shown('s1');
		expect(rows.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
		expectAscending(rows);
		const moved = await listMessages(db, 's2');
		expect(rows.slice(2).map((row) => row.position)).not.toContain(moved.find((row) => row.id === 'c')!.position);
	});
});

describe('a copy into a new session (a branch)', () => {
	it('gives the copied rows new positions in their seq order, compacted rows and summaries at fractional seqs included', async () => {
		await appendMessages(db, 's1', [said('a'), said('b'), said('c')], T);
		const source = await shown('s1');
		const copies: MessageRow[] = [
			{ ...source[0], session_id: 'b1', id: 'a2' },
			{ ...source[2], session_id: 'b1', id: 'c2' },
			// A summary written later than the rows around it: its source position is the last.
			{ ...source[1], session_id: 'b1', id: 'sum', seq: 0.5, kind: 'summary', position: nextPosition(source[2].position, T + 9, seededRandom(3)) }
		];
		const stored = await insertSessionWithMessages(db, testSessionRow('b1', { next_seq: 3, message_count: 3 }), copies, {}, [], T + 10);
		const rows = await shown('b1');
		expect(rows).toEqual([...stored].sort((a, b) => a.seq - b.seq));
		expect(rows.map((row) => row.id)).toEqual(['a2', 'sum', 'c2']);
		expectAscending(rows);
		for (const row of rows) expect(source.map((s) => s.position)).not.toContain(row.position);
	});
});
