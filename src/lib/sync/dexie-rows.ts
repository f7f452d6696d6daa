// Writes the rows of what arrived, inside a sync transaction: each new row at a seq between its
// neighbours by rank (so seq keeps following rank), spread evenly where several land in one gap;
// where a gap has no room left, the session's seqs are rewritten as whole numbers in one go
// (never under a tab working on that session: its arrivals then wait for the next pass). Then the
// conversation is derived again (db/conversation-verbs.ts) and the session's counters kept.
import { Dexie } from '../db/database';
import { readSessionRows, writeConversation } from '../db/conversation-verbs';
import { rowRank } from '../db/rank';
import type { MessageRow, SessionRow } from '../db/schema';
import type { SyncContext } from './dexie-context';

/** A row to write, without its seq (new) or with the seq it has (changed). */
export type ArrivingRow = Omit<MessageRow, 'seq'> & { seq?: number };

/** The session's rows as (rank, seq), in rank order (which is seq order). */
async function readOrder(ctx: SyncContext, sessionId: string): Promise<{ ranks: string[]; seqs: number[] }> {
	const range = ctx.db.messages.where('[session_id+rank]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]);
	const [keys, primaryKeys] = await Promise.all([range.keys(), range.primaryKeys()]);
	return { ranks: keys.map((key) => (key as unknown as [string, string])[1]), seqs: primaryKeys.map((key) => key[1]) };
}

function countBelow(ranks: readonly string[], rank: string): number {
	let [low, high] = [0, ranks.length];
	while (low < high) {
		const mid = (low + high) >> 1;
		if (ranks[mid] < rank) low = mid + 1;
		else high = mid;
	}
	return low;
}

/**
 * Seqs for `rows` (new to the session, in rank order) among the session's rows, or null when some
 * gap has no room for them.
 */
function placeSeqs(order: { ranks: string[]; seqs: number[] }, rows: readonly ArrivingRow[], nextSeq: number): { seqs: number[]; nextSeq: number } | null {
	const gaps = new Map<number, number[]>();
	rows.forEach((row, index) => {
		const at = countBelow(order.ranks, rowRank(row));
		const gap = gaps.get(at) ?? [];
		gap.push(index);
		gaps.set(at, gap);
	});
	const seqs: number[] = new Array(rows.length);
	let next = nextSeq;
	for (const [at, indexes] of gaps) {
		const high = order.seqs[at];
		if (high === undefined) {
			for (const index of indexes) seqs[index] = next++;
			continue;
		}
		const low = at > 0 ? order.seqs[at - 1] : high - 1;
		const step = (high - low) / (indexes.length + 1);
		let previous = low;
		for (const [i, index] of indexes.entries()) {
			const seq = low + step * (i + 1);
			if (!(seq > previous && seq < high)) return null;
			seqs[index] = previous = seq;
		}
	}
	return { seqs, nextSeq: next };
}

/**
 * Rewrites the session's seqs as 0, 1, 2… in rank order, with `arriving` among them, and the
 * request recipes that name seqs. Returns the new next seq.
 */
async function renumber(ctx: SyncContext, session: SessionRow, arriving: readonly ArrivingRow[]): Promise<number> {
	const { db } = ctx;
	const rows = await db.messages.where('[session_id+seq]').between([session.id, Dexie.minKey], [session.id, Dexie.maxKey]).toArray();
	const all = [...rows, ...arriving].sort((a, b) => (rowRank(a) < rowRank(b) ? -1 : rowRank(a) > rowRank(b) ? 1 : 0));
	const seqOf = new Map<number, number>();
	all.forEach((row, index) => {
		if (row.seq !== undefined) seqOf.set(row.seq, index);
	});
	const renumbered = all.map((row, index): MessageRow => {
		const next = { ...row, seq: index } as MessageRow;
		if (next.sent) {
			const seqs = next.sent.seqs.flatMap(([first, count]) => (count === undefined ? [first] : Array.from({ length: count }, (_, i) => first + i))).map((seq) => seqOf.get(seq) ?? seq);
			next.sent = { ...next.sent, seqs: seqs.map((seq) => [seq]), user_seq: seqOf.get(next.sent.user_seq) ?? next.sent.user_seq };
		}
		return next;
	});
	await db.messages.bulkDelete(rows.map((row): [string, number] => [session.id, row.seq]));
	await db.messages.bulkAdd(renumbered);
	return renumbered.length;
}

/**
 * Writes `changed` (rows already here, at their seqs) and places `arriving` (new rows); returns
 * false, writing nothing, when they need the session renumbered while a tab works on it.
 */
export async function writeRows(ctx: SyncContext, session: SessionRow, changed: readonly MessageRow[], arriving: readonly ArrivingRow[]): Promise<{ written: boolean; nextSeq: number }> {
	const { db } = ctx;
	if (changed.length) await db.messages.bulkPut([...changed]);
	if (!arriving.length) return { written: true, nextSeq: session.next_seq };
	const sorted = [...arriving].sort((a, b) => (rowRank(a) < rowRank(b) ? -1 : rowRank(a) > rowRank(b) ? 1 : 0));
	const placed = placeSeqs(await readOrder(ctx, session.id), sorted, session.next_seq);
	if (placed) {
		await db.messages.bulkAdd(sorted.map((row, index) => ({ ...row, seq: placed.seqs[index] }) as MessageRow));
		return { written: true, nextSeq: placed.nextSeq };
	}
	if (ctx.busy.has(session.id)) return { written: false, nextSeq: session.next_seq };
	return { written: true, nextSeq: await renumber(ctx, session, sorted) };
}

/** The session's counters after its rows changed, and its conversation derived again. */
export async function settleSession(ctx: SyncContext, session: SessionRow, nextSeq: number): Promise<SessionRow> {
	const { db } = ctx;
	// The rows are read once: counted, and the conversation derived from them.
	const rows = await readSessionRows(db, session.id);
	const counted = { ...session, message_count: rows.length, next_seq: Math.max(nextSeq, session.next_seq) };
	if (counted.message_count !== session.message_count || counted.next_seq !== session.next_seq) await db.sessions.update(session.id, { message_count: counted.message_count, next_seq: counted.next_seq });
	return (await writeConversation(db, counted, rows)).session;
}
