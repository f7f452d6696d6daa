// The one transaction of a compaction, and the reads around it. Compaction never deletes:
// rows leaving the context get active = 0 and compacted_by, and stay readable.
//
// Placement: new rows (summary, stubs, notice) get a fractional seq between two existing keys
// of the session, so they sit where what they replace was. Halving an interval ~50 times in a
// row would exhaust a double's precision; the write then refuses rather than collide.
import { Dexie, type PalimpsestDb } from './database';
import { copyImages, type NewMessage } from './message-verbs';
import type { CompactionState, MessageRow, SessionRow, UnfiredHook } from './schema';
import { compactionReceipt } from './unfired-hook-verbs';
import { lastPositionOf } from './message-positions';
import { positionsAfter } from './position-clock';
import { ceilingAbove, keyBetween, orderOfRank, rankOf, rowRank } from './rank';
import { deriveConversation, tagAt } from './conversation';
import { readSessionRows } from './conversation-verbs';

/** A row a compaction adds, placed just before `before` (a kept row) or just after `after`. */
export interface PlacedRow {
	row: NewMessage;
	before?: number | null;
	after?: number;
}

export interface CompactionCommit {
	sessionId: string;
	compactionId: string;
	/** Seqs of rows leaving the context; each must still be active, else the commit is refused. */
	removed: number[];
	/** Added in order; a row placed before a seq lands after rows placed there earlier. */
	inserted: PlacedRow[];
	compaction: CompactionState;
	tokenEstimate: number;
	now: number;
	/** `post_compaction`, owed once this commits (written on a receipt named compactionId, see unfired-hook-verbs.ts). */
	owes?: UnfiredHook;
}

/** Rows read and written per IndexedDB call when a compaction marks what it removed. */
const SLICE = 100;

/** Another tab or an earlier write changed the rows this compaction planned on. */
export class CompactionRaceError extends Error {
	constructor(message = 'The conversation changed while it was being compacted.') {
		super(message);
		this.name = 'CompactionRaceError';
	}
}

/**
 * Rows per request when a session's live rows are read: the page's main thread turns each
 * request's rows into objects in a task of its own, so reading a long session (a 200k-token
 * one is about 0.7 MB) is several short tasks rather than one long one.
 */
export const READ_PAGE = 100;

/** The session's rows in the live context window: O(active rows), whatever it once held. */
export function listActiveMessages(db: PalimpsestDb, sessionId: string): Promise<MessageRow[]> {
	return db.transaction('r', db.messages, async () => {
		const rows: MessageRow[] = [];
		for (;;) {
			const last = rows.at(-1);
			const page = await db.messages
				.where('[session_id+active+seq]')
				.between([sessionId, 1, last ? last.seq : Dexie.minKey], [sessionId, 1, Dexie.maxKey], !last, true)
				.limit(READ_PAGE)
				.toArray();
			rows.push(...page);
			if (page.length < READ_PAGE) return rows;
		}
	});
}

/** The rows one compaction removed, for "Show compacted messages" (read on demand only). */
export function listCompactedBy(db: PalimpsestDb, sessionId: string, compactionId: string): Promise<MessageRow[]> {
	return db.messages
		.where('[session_id+active+seq]')
		.between([sessionId, 0, Dexie.minKey], [sessionId, 0, Dexie.maxKey])
		.filter((row) => row.compacted_by === compactionId)
		.toArray();
}

async function neighbour(db: PalimpsestDb, sessionId: string, seq: number, direction: 'below' | 'above'): Promise<MessageRow | undefined> {
	const range =
		direction === 'below'
			? db.messages.where('[session_id+seq]').between([sessionId, -Infinity], [sessionId, seq], true, false).reverse()
			: db.messages.where('[session_id+seq]').between([sessionId, seq], [sessionId, Infinity], false, true);
	return (await range.limit(1).toArray())[0];
}

/**
 * The seq and order key of a row placed as `place` says: between its neighbours in both (after
 * the last row: below every position the session gives from now on, see ceilingAbove).
 */
async function placeRow(db: PalimpsestDb, session: SessionRow, place: PlacedRow, lastPosition: string | undefined): Promise<{ seq: number; order: string }> {
	let low: MessageRow | undefined;
	let high: MessageRow | undefined;
	let lowSeq: number;
	let highSeq: number;
	if (place.after !== undefined) {
		[low, high] = await Promise.all([db.messages.get([session.id, place.after]), neighbour(db, session.id, place.after, 'above')]);
		lowSeq = place.after;
		highSeq = high?.seq ?? session.next_seq;
	} else {
		highSeq = place.before ?? session.next_seq;
		[low, high] = await Promise.all([neighbour(db, session.id, highSeq, 'below'), place.before === null || place.before === undefined ? undefined : db.messages.get([session.id, place.before])]);
		lowSeq = low?.seq ?? highSeq - 1;
	}
	const seq = lowSeq + (highSeq - lowSeq) / 2;
	if (!(seq > lowSeq && seq < highSeq)) throw new CompactionRaceError('There is no room left to place the summary; compact into a new session instead.');
	return { seq, order: keyBetween(low && orderOfRank(rowRank(low)), high ? orderOfRank(rowRank(high)) : ceilingAbove(lastPosition)) };
}

/** Writes a compaction in one transaction; returns the rows it added. */
export async function commitCompaction(db: PalimpsestDb, commit: CompactionCommit): Promise<MessageRow[]> {
	return db.transaction('rw', [db.sessions, db.messages, db.receipts], async () => {
		const session = await db.sessions.get(commit.sessionId);
		if (!session) throw new CompactionRaceError('The session no longer exists.');
		if (commit.owes) await db.receipts.put(compactionReceipt(commit.compactionId, commit.now, commit.owes));
		const keys = commit.removed.map((seq): [string, number] => [commit.sessionId, seq]);
		// In slices: a write per row costs a round trip each (seconds for thousands of rows in
		// Chromium); one write of every row copies them all in one long main-thread task.
		for (let start = 0; start < keys.length; start += SLICE) {
			const current = await db.messages.bulkGet(keys.slice(start, start + SLICE));
			// Compacted, or kept in context, since the compaction was planned.
			if (current.some((row) => !row || row.active !== 1 || (row.pinned && row.kind === 'message' && (row.role === 'user' || row.role === 'assistant')))) throw new CompactionRaceError();
			await db.messages.bulkPut(current.map((row) => ({ ...(row as MessageRow), active: 0 as const, compacted_by: commit.compactionId })));
		}
		// Fresh positions (each row's identity), and ranks that sort each where it was placed: on
		// every device the summary sits where the rows it replaced were, before the kept tail.
		const lastPosition = await lastPositionOf(db, commit.sessionId);
		const positions = positionsAfter(lastPosition, commit.inserted.length, commit.now);
		// Where the conversation has versions, each row joins the version on show where it lands.
		const places = session.tip ? deriveConversation(session.version_shown, await readSessionRows(db, commit.sessionId)).places : [];
		const added: MessageRow[] = [];
		for (const [index, place] of commit.inserted.entries()) {
			const { seq, order } = await placeRow(db, session, place, lastPosition);
			const { rank: _rank, branch: _branch, shelved: _shelved, ...fields } = place.row as NewMessage & Partial<MessageRow>;
			const branch = tagAt(places, seq);
			const row: MessageRow = { active: 1, compacted_by: null, ...fields, session_id: commit.sessionId, seq, position: positions[index], rank: rankOf(positions[index], order), ...(branch ? { branch } : {}) };
			await db.messages.add(row);
			added.push(row);
		}
		await db.sessions.update(commit.sessionId, {
			message_count: session.message_count + added.length,
			token_estimate: commit.tokenEstimate,
			compaction: commit.compaction,
			last_activity_at: commit.now
		});
		return added;
	});
}

export interface RotationCommit {
	parentId: string;
	endedAt: number;
	/** The child session, already built; its rows follow in order (seq 0, 1, …). */
	child: SessionRow;
	rows: NewMessage[];
	/** The parent's compaction state after this compaction (its cooldown and counters reset). */
	parentCompaction: CompactionState;
	/** `post_compaction`, owed once this commits, on a receipt named `compactionId`. */
	owes?: { compactionId: string; hook: UnfiredHook };
}

/**
 * Rotation: the parent ends with end_reason 'compression' and a child continues the thread
 * with the summary and the kept tail, in one transaction. The parent's rows stay as they were.
 */
export async function commitRotation(db: PalimpsestDb, commit: RotationCommit): Promise<SessionRow> {
	return db.transaction('rw', [db.sessions, db.messages, db.blobs, db.receipts], async () => {
		const parent = await db.sessions.get(commit.parentId);
		if (!parent) throw new CompactionRaceError('The session no longer exists.');
		if (parent.ended_at !== null) throw new CompactionRaceError('The session has already ended.');
		const positions = positionsAfter(undefined, commit.rows.length, commit.endedAt);
		// A new session of its own: its rows sort by their new positions and have no versions.
		const rows: MessageRow[] = commit.rows.map((row, seq) => {
			const { rank: _rank, branch: _branch, shelved: _shelved, ...fields } = row as NewMessage & Partial<MessageRow>;
			return { active: 1, compacted_by: null, ...fields, session_id: commit.child.id, seq, position: positions[seq], rank: positions[seq] };
		});
		const child: SessionRow = { ...commit.child, next_seq: rows.length, message_count: rows.length };
		await db.sessions.add(child);
		await db.messages.bulkAdd(rows);
		if (commit.owes) await db.receipts.put(compactionReceipt(commit.owes.compactionId, commit.endedAt, commit.owes.hook));
		// The images the kept tail shows go with it: the child may outlive its parent.
		await copyImages(db, commit.parentId, child.id, rows);
		await db.sessions.update(commit.parentId, {
			ended_at: commit.endedAt,
			end_reason: 'compression',
			compaction: commit.parentCompaction
		});
		return child;
	});
}

export async function setCompactionState(db: PalimpsestDb, sessionId: string, state: CompactionState): Promise<void> {
	await db.sessions.update(sessionId, { compaction: state });
}
