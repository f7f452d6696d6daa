// Writing a session together with its messages: a branch copies history into a new session,
// profile repair copies a misfiled session into its own profile. One transaction each.
import { Dexie, type PalimpsestDb } from './database';
import type { MessageRow, SessionRow } from './schema';

/** Stores a new session and its messages at once, so no reader sees one without the other. */
export async function insertSessionWithMessages(db: PalimpsestDb, row: SessionRow, messages: MessageRow[]): Promise<void> {
	await db.transaction('rw', db.sessions, db.messages, async () => {
		await db.sessions.add(row);
		await db.messages.bulkAdd(messages);
	});
}

export interface SessionCopy {
	row: SessionRow;
	messages: MessageRow[];
}

/**
 * Stores sessions copied from another database. A session already here is replaced only by a
 * copy with later activity (a repair interrupted half-way, then run again, changes nothing).
 * Returns the ids now stored from the copies.
 */
export async function adoptSessions(db: PalimpsestDb, copies: SessionCopy[]): Promise<string[]> {
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const existing = await db.sessions.bulkGet(copies.map((copy) => copy.row.id));
		const adopted: string[] = [];
		for (const [i, { row, messages }] of copies.entries()) {
			const here = existing[i];
			if (here && here.last_activity_at >= row.last_activity_at) continue;
			if (here) await db.messages.where('[session_id+seq]').between([row.id, Dexie.minKey], [row.id, Dexie.maxKey]).delete();
			await db.sessions.put(row);
			await db.messages.bulkPut(messages);
			adopted.push(row.id);
		}
		return adopted;
	});
}
