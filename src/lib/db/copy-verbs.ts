// Writing a session together with its messages: a branch copies history into a new session,
// profile repair copies a misfiled session into its own profile. One transaction each. The
// request frames the copied answers refer to go with them, so "What the model received" still
// shows on the copy, even if the original is deleted meanwhile and its frames with it; so do the
// images the copied messages show.
import { Dexie, type PalimpsestDb } from './database';
import { blobIdsOf, listMessages } from './message-verbs';
import { readFramesOf, storeMissingFrames, type RequestFrames } from './request-frames';
import type { BlobRow, MessageRow, SessionRow } from './schema';
import { withPositionsInOrder } from './position-clock';

/** An image's bytes apart from the session that holds them. */
export type ImageCopy = Omit<BlobRow, 'session_id'>;

/** A session's messages, the frames they refer to and the images they show, read together. */
export async function readMessagesWithFrames(db: PalimpsestDb, sessionId: string): Promise<{ messages: MessageRow[]; frames: RequestFrames; images: ImageCopy[] }> {
	return db.transaction('r', db.messages, db.settings, db.blobs, async () => {
		const messages = await listMessages(db, sessionId);
		const [frames, images] = await Promise.all([readFramesOf(db, messages), db.blobs.bulkGet(blobIdsOf(messages).map((id): [string, string] => [sessionId, id]))]);
		return { messages, frames, images: images.filter((image) => image !== undefined).map(({ id, type, data }) => ({ id, type, data })) };
	});
}

/** The images the messages show, kept under `sessionId`. */
function imagesFor(sessionId: string, messages: readonly MessageRow[], images: readonly ImageCopy[]): BlobRow[] {
	const shown = new Set(blobIdsOf(messages));
	return images.filter((image) => shown.has(image.id)).map((image) => ({ ...image, session_id: sessionId }));
}

/**
 * Stores a new session, its messages and the images they show at once, so no reader sees one
 * without the others. The messages are new to the session: they take new positions, in seq order.
 * Returns the rows as stored.
 */
export async function insertSessionWithMessages(
	db: PalimpsestDb,
	row: SessionRow,
	messages: MessageRow[],
	frames: RequestFrames = {},
	images: readonly ImageCopy[] = [],
	now = Date.now()
): Promise<MessageRow[]> {
	// A new session of its own: its rows sort by their new positions, and it has no versions yet.
	const placed = withPositionsInOrder(messages, () => now).map(({ branch: _branch, ...row }) => ({ ...row, rank: row.position }));
	return db.transaction('rw', [db.sessions, db.messages, db.settings, db.blobs], async () => {
		await db.sessions.add(row);
		await db.messages.bulkAdd(placed);
		await db.blobs.bulkAdd(imagesFor(row.id, messages, images));
		await storeMissingFrames(db, frames, messages);
		return placed;
	});
}

export interface SessionCopy {
	row: SessionRow;
	messages: MessageRow[];
	frames: RequestFrames;
	images?: ImageCopy[];
}

/**
 * Stores sessions copied from another database. A session already here is replaced only by a
 * copy with later activity (a repair interrupted half-way, then run again, changes nothing).
 * Returns the ids now stored from the copies.
 */
export async function adoptSessions(db: PalimpsestDb, copies: SessionCopy[]): Promise<string[]> {
	return db.transaction('rw', [db.sessions, db.messages, db.settings, db.blobs], async () => {
		const existing = await db.sessions.bulkGet(copies.map((copy) => copy.row.id));
		const adopted: string[] = [];
		for (const [i, { row, messages, frames, images = [] }] of copies.entries()) {
			const here = existing[i];
			if (here && here.last_activity_at >= row.last_activity_at) continue;
			if (here) await db.messages.where('[session_id+seq]').between([row.id, Dexie.minKey], [row.id, Dexie.maxKey]).delete();
			await db.sessions.put(row);
			await db.messages.bulkPut(messages);
			await db.blobs.bulkPut(imagesFor(row.id, messages, images));
			await storeMissingFrames(db, frames, messages);
			adopted.push(row.id);
		}
		return adopted;
	});
}
