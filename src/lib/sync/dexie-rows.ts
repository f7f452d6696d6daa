// Writes the rows of what arrived, inside a sync transaction: each new row at a seq between its
// neighbours by rank (so seq keeps following rank), spread evenly where several land in one gap;
// where a gap has no room left, the session's seqs are rewritten as whole numbers in one go
// (never under a tab working on that session: its arrivals then wait for the next pass). Then the
// conversation is derived again (db/conversation-verbs.ts) and the session's counters kept. The
// session's rows are read once, before: what is written is known, so nothing is read back.
import { readSessionRows, writeConversationRows } from '../db/conversation-verbs';
import { rowRank } from '../db/rank';
import type { MessageRow, SessionRow } from '../db/schema';
import type { SyncContext } from './dexie-context';

/** A row to write, without its seq (new) or with the seq it has (changed). */
export type ArrivingRow = Omit<MessageRow, 'seq'> & { seq?: number };

/** The session's rows that have a rank as (rank, seq), in rank order (which is seq order), as its [session_id+rank] index lists them. */
function orderOf(rows: readonly MessageRow[]): { ranks: string[]; seqs: number[] } {
	const ranked = rows.filter((row) => row.rank !== undefined).sort((a, b) => (a.rank! < b.rank! ? -1 : a.rank! > b.rank! ? 1 : a.seq - b.seq));
	return { ranks: ranked.map((row) => row.rank!), seqs: ranked.map((row) => row.seq) };
}

const bySeq = (a: MessageRow, b: MessageRow) => a.seq - b.seq;

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
 * Rewrites the session's seqs as 0, 1, 2… in rank order, with `arriving` among them (`rows`: those
 * there), and the request recipes that name seqs. Returns the rows as they are then.
 */
async function renumber(ctx: SyncContext, session: SessionRow, rows: readonly MessageRow[], arriving: readonly ArrivingRow[]): Promise<MessageRow[]> {
	const { db } = ctx;
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
	return renumbered;
}

/**
 * Writes `changed` (rows already here, at their seqs) and places `arriving` (new rows) among
 * `rows` (all the session's rows now, in seq order); returns false, writing nothing, when they
 * need the session renumbered while a tab works on it. `rows` then: the session's rows after.
 */
export async function writeRows(ctx: SyncContext, session: SessionRow, rows: readonly MessageRow[], changed: readonly MessageRow[], arriving: readonly ArrivingRow[]): Promise<{ written: boolean; nextSeq: number; rows: MessageRow[] }> {
	const { db } = ctx;
	if (changed.length) await db.messages.bulkPut([...changed]);
	const now = new Map(rows.map((row) => [row.seq, row]));
	for (const row of changed) now.set(row.seq, row);
	const current = [...now.values()].sort(bySeq);
	if (!arriving.length) return { written: true, nextSeq: session.next_seq, rows: current };
	const sorted = [...arriving].sort((a, b) => (rowRank(a) < rowRank(b) ? -1 : rowRank(a) > rowRank(b) ? 1 : 0));
	const placed = placeSeqs(orderOf(current), sorted, session.next_seq);
	if (placed) {
		const added = sorted.map((row, index) => ({ ...row, seq: placed.seqs[index] }) as MessageRow);
		await db.messages.bulkAdd(added);
		return { written: true, nextSeq: placed.nextSeq, rows: [...current, ...added].sort(bySeq) };
	}
	if (ctx.busy.has(session.id)) return { written: false, nextSeq: session.next_seq, rows: current };
	const renumbered = await renumber(ctx, session, current, sorted);
	return { written: true, nextSeq: renumbered.length, rows: renumbered };
}

/**
 * The session's counters after its rows changed, and its conversation derived again, from `rows`
 * (all its rows as they are now, in seq order: read when not given). `session`: its row as stored
 * now, written whole (once) when anything of it changed.
 */
export async function settleSession(ctx: SyncContext, session: SessionRow, nextSeq: number, rows?: MessageRow[]): Promise<SessionRow> {
	const { db } = ctx;
	const all = rows ?? (await readSessionRows(db, session.id));
	const counted = { ...session, message_count: all.length, next_seq: Math.max(nextSeq, session.next_seq) };
	const settled = (await writeConversationRows(db, counted, all)).session;
	if (settled !== counted || counted.message_count !== session.message_count || counted.next_seq !== session.next_seq) await db.sessions.put(settled);
	return settled;
}
