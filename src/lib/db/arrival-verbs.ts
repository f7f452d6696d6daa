// Messages that arrive from another device: each is placed among this device's rows by its
// position, at a seq between its neighbours (as a compaction places a summary), so no row here
// is ever renumbered and every device shows a session's messages in one order.
import Dexie from 'dexie';
import type { PalimpsestDb } from './database';
import type { NewMessage } from './message-verbs';
import { isPosition } from './position-clock';
import type { MessageRow, SessionRow } from './schema';

/** A message from another device: its position is the one it was written with there. */
export type ArrivedMessage = NewMessage & { position: string };

/** The session's rows as (position, seq), in position order. */
interface Order {
	positions: string[];
	seqs: number[];
}

/** How many positions of `order` are below `position` (binary search). */
function countBelow(order: Order, position: string): number {
	let [low, high] = [0, order.positions.length];
	while (low < high) {
		const mid = (low + high) >> 1;
		if (order.positions[mid] < position) low = mid + 1;
		else high = mid;
	}
	return low;
}

/**
 * The seq for a row at `position`: after every row with an earlier position, before the first
 * later one. A row a compaction added here sits at a place of its own (where what it folds was)
 * with a late position; it is passed over when it would leave no room, so the arrival still
 * follows everything that was written before it. `high` undefined: after every row.
 */
function seqBetween(order: Order, position: string): { low: number | undefined; high: number | undefined } {
	const below = countBelow(order, position);
	let low: number | undefined;
	for (let i = 0; i < below; i++) if (low === undefined || order.seqs[i] > low) low = order.seqs[i];
	let high: number | undefined;
	for (let i = below; i < order.seqs.length; i++) {
		const seq = order.seqs[i];
		if ((low === undefined || seq > low) && (high === undefined || seq < high)) high = seq;
	}
	return { low, high };
}

/**
 * Stores messages from another device in one transaction, each where its position puts it; a
 * position the session already holds is skipped (so a message that arrives twice lands once).
 * Keeps the session's message_count and next_seq. Returns the rows it stored, in position order.
 */
export async function insertArrivedMessages(db: PalimpsestDb, sessionId: string, messages: readonly ArrivedMessage[]): Promise<MessageRow[]> {
	return (await insertArrivals(db, new Map([[sessionId, messages]]))).get(sessionId)!.added;
}

/**
 * insertArrivedMessages for many sessions at once: every session's rows are read together and
 * every new row written in one request, so a page of a first sync costs a few round trips, not a
 * few per session. Returns, per session, the rows it stored and the session's row after.
 */
export async function insertArrivals(db: PalimpsestDb, arrivals: ReadonlyMap<string, readonly ArrivedMessage[]>): Promise<Map<string, { added: MessageRow[]; session: SessionRow }>> {
	for (const messages of arrivals.values()) for (const message of messages) if (!isPosition(message.position)) throw new Error(`Not a position: ${JSON.stringify(message.position)}.`);
	const ids = [...arrivals.keys()];
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const sessions = await db.sessions.bulkGet(ids);
		const missing = ids.find((_, i) => !sessions[i]);
		if (missing !== undefined) throw new Error(`Session ${missing} no longer exists.`);
		const orders = await Promise.all(ids.map((id) => readOrder(db, id)));
		const result = new Map<string, { added: MessageRow[]; session: SessionRow }>();
		const added: MessageRow[] = [];
		const updated: SessionRow[] = [];
		ids.forEach((id, i) => {
			const session = sessions[i]!;
			const stored = place(id, orders[i], session.next_seq, arrivals.get(id)!);
			const next = stored.added.length ? { ...session, next_seq: stored.nextSeq, message_count: session.message_count + stored.added.length } : session;
			if (stored.added.length) updated.push(next);
			added.push(...stored.added);
			result.set(id, { added: stored.added, session: next });
		});
		if (added.length) await Promise.all([db.messages.bulkAdd(added), db.sessions.bulkPut(updated)]);
		return result;
	});
}

/** A session's rows as (position, seq), in position order. */
async function readOrder(db: PalimpsestDb, sessionId: string): Promise<Order> {
	const range = db.messages.where('[session_id+position]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]);
	const [indexKeys, primaryKeys] = await Promise.all([range.keys(), range.primaryKeys()]);
	return { positions: indexKeys.map((key) => (key as unknown as [string, string])[1]), seqs: primaryKeys.map((key) => key[1]) };
}

/** The rows of `messages` not yet in `order`, each at a seq its position puts it; `order` takes them in. */
function place(sessionId: string, order: Order, nextSeq: number, messages: readonly ArrivedMessage[]): { added: MessageRow[]; nextSeq: number } {
	const arriving = [...messages].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
	const added: MessageRow[] = [];
	for (const message of arriving) {
		const at = countBelow(order, message.position);
		if (order.positions[at] === message.position) continue;
		const { low, high } = seqBetween(order, message.position);
		let seq: number;
		if (high === undefined) seq = nextSeq++;
		else if (low === undefined) seq = Math.ceil(high) - 1;
		else seq = low + (high - low) / 2;
		if (low !== undefined && !(seq > low && (high === undefined || seq < high))) {
			throw new Error('There is no room left to place a message from another device; nothing of it was stored.');
		}
		order.positions.splice(at, 0, message.position);
		order.seqs.splice(at, 0, seq);
		added.push({ active: 1, compacted_by: null, ...message, session_id: sessionId, seq });
	}
	return { added, nextSeq };
}
