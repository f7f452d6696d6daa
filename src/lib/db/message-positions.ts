// Positions of the message rows of a session, read and given in the database (see
// position-clock.ts): seq stays this device's display order; a position is what every device orders by.
import Dexie, { type Table } from 'dexie';
import { isPosition, positionAfter, type RandomBytes } from './position-clock';
import type { MessageRow } from './schema';

/**
 * The greatest position the session holds, read by index in the caller's transaction. Read, not
 * kept on the session row: every row that lands (an append, a compaction, a message from another
 * device) counts at once, with no second field to keep in step on every write path.
 */
export async function lastPositionOf(db: { messages: Table<MessageRow, [string, number]> }, sessionId: string): Promise<string | undefined> {
	const keys = await db.messages
		.where('[session_id+position]')
		.between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
		.reverse()
		.limit(1)
		.keys();
	const last = (keys[0] as unknown as [string, string] | undefined)?.[1];
	return isPosition(last) ? last : undefined;
}

/**
 * Gives every row of `messages` (a table at schema 9) a position: per session, in seq order,
 * from its created_at, each past the one before. These rows have never synced, so two devices
 * that migrate the same profile need not agree.
 */
export async function givePositions(messages: Table<MessageRow, [string, number]>, random?: RandomBytes): Promise<void> {
	let session: string | undefined;
	let last: string | undefined;
	// In primary-key order, [session_id+seq]: each session's rows come together, in seq order.
	await messages.toCollection().modify((row: MessageRow) => {
		if (row.session_id !== session) [session, last] = [row.session_id, undefined];
		row.position = last = positionAfter(last, row.created_at, random);
	});
}
