// "Keep in context": the pin on a message row, set or cleared in one short write (sync's outbox
// records it with the row, so it reaches the other devices like any edit of the message).
import type { PalimpsestDb } from './database';
import type { MessageRow } from './schema';

/** The message could not be kept in context (gone, compacted meanwhile, or not a message of yours or an answer). */
export class PinRefusedError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PinRefusedError';
	}
}

/** Keeps the message at `seq` in context (`pinned` true) or lets compaction fold it again; returns the row as written. */
export async function setPinned(db: PalimpsestDb, sessionId: string, seq: number, pinned: boolean): Promise<MessageRow> {
	return db.transaction('rw', db.messages, async () => {
		const row = await db.messages.get([sessionId, seq]);
		if (!row) throw new PinRefusedError('This message no longer exists.');
		if (pinned) {
			if (row.kind !== 'message' || (row.role !== 'user' && row.role !== 'assistant')) throw new PinRefusedError('Only your messages and the answers can be kept in context.');
			if (row.active !== 1) throw new PinRefusedError('This message is no longer in the context (it was compacted meanwhile); undo the compaction to keep it.');
			if (row.status === 'streaming') throw new PinRefusedError('Wait for the answer to finish before keeping it in context.');
		}
		if ((row.pinned === true) === pinned) return row;
		const { pinned: _pinned, ...rest } = row;
		const next: MessageRow = pinned ? { ...rest, pinned: true } : rest;
		await db.messages.put(next);
		return next;
	});
}
