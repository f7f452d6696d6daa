// Writing a session together with its messages: a branch copies history into a new session,
// profile repair copies a misfiled session into its own profile. One transaction each. The
// request frames the copied answers refer to go with them, so "What the model received" still
// shows on the copy, even if the original is deleted meanwhile and its frames with it.
import { Dexie, type PalimpsestDb } from './database';
import { listMessages } from './message-verbs';
import { readFramesOf, storeMissingFrames, type RequestFrames } from './request-frames';
import type { MessageRow, SessionRow } from './schema';

/** A session's messages and the frames they refer to, read together. */
export async function readMessagesWithFrames(db: PalimpsestDb, sessionId: string): Promise<{ messages: MessageRow[]; frames: RequestFrames }> {
	return db.transaction('r', db.messages, db.settings, async () => {
		const messages = await listMessages(db, sessionId);
		return { messages, frames: await readFramesOf(db, messages) };
	});
}

/** Stores a new session and its messages at once, so no reader sees one without the other. */
export async function insertSessionWithMessages(db: PalimpsestDb, row: SessionRow, messages: MessageRow[], frames: RequestFrames = {}): Promise<void> {
	await db.transaction('rw', db.sessions, db.messages, db.settings, async () => {
		await db.sessions.add(row);
		await db.messages.bulkAdd(messages);
		await storeMissingFrames(db, frames, messages);
	});
}

export interface SessionCopy {
	row: SessionRow;
	messages: MessageRow[];
	frames: RequestFrames;
}

/**
 * Stores sessions copied from another database. A session already here is replaced only by a
 * copy with later activity (a repair interrupted half-way, then run again, changes nothing).
 * Returns the ids now stored from the copies.
 */
export async function adoptSessions(db: PalimpsestDb, copies: SessionCopy[]): Promise<string[]> {
	return db.transaction('rw', db.sessions, db.messages, db.settings, async () => {
		const existing = await db.sessions.bulkGet(copies.map((copy) => copy.row.id));
		const adopted: string[] = [];
		for (const [i, { row, messages, frames }] of copies.entries()) {
			const here = existing[i];
			if (here && here.last_activity_at >= row.last_activity_at) continue;
			if (here) await db.messages.where('[session_id+seq]').between([row.id, Dexie.minKey], [row.id, Dexie.maxKey]).delete();
			await db.sessions.put(row);
			await db.messages.bulkPut(messages);
			await storeMissingFrames(db, frames, messages);
			adopted.push(row.id);
		}
		return adopted;
	});
}
