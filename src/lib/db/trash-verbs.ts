// "Recently deleted": a session deleted on another device (or on the sync server) is taken out
// of this device's tables whole (its row, messages and Blobs) and kept here, so Restore can put it
// back as it was. The moves run inside the caller's transaction over sessions, messages, blobs and
// sync_trash; restoring is also a verb of its own, whose writes sync then sends as a restore.
import { Dexie, type PalimpsestDb } from './database';
import type { BlobRow, SyncTrashRow } from './schema';

const range = (sessionId: string): [unknown[], unknown[]] => [
	[sessionId, Dexie.minKey],
	[sessionId, Dexie.maxKey]
];

/** Moves a session, its messages and Blobs to the trash (learned at `at`); false when it has no row here. */
export async function moveSessionToTrash(db: PalimpsestDb, sessionId: string, at: number): Promise<boolean> {
	const [session, messages, blobs] = await Promise.all([
		db.sessions.get(sessionId),
		db.messages.where('[session_id+seq]').between(...range(sessionId)).toArray(),
		db.blobs.where('[session_id+id]').between(...range(sessionId)).toArray()
	]);
	if (!session) return false;
	await db.sync_trash.put({ session_id: sessionId, at, session, messages, blobs });
	await Promise.all([
		db.sessions.delete(sessionId),
		db.messages.where('[session_id+seq]').between(...range(sessionId)).delete(),
		db.blobs.where('[session_id+id]').between(...range(sessionId)).delete()
	]);
	return true;
}

/**
 * Keeps a file that arrived for a session in the trash with its kept copy, so Restore brings it
 * back too; false when the session is not in the trash. One id is one file: one kept already stays.
 */
export async function addBlobToTrash(db: PalimpsestDb, blob: BlobRow): Promise<boolean> {
	const kept = await db.sync_trash.get(blob.session_id);
	if (!kept) return false;
	if (!kept.blobs.some((row) => row.id === blob.id)) await db.sync_trash.put({ ...kept, blobs: [...kept.blobs, blob] });
	return true;
}

/** Puts a session back from the trash as it was; the kept copy is returned (undefined: none). */
export async function takeSessionFromTrash(db: PalimpsestDb, sessionId: string): Promise<SyncTrashRow | undefined> {
	const kept = await db.sync_trash.get(sessionId);
	if (!kept) return undefined;
	await db.sync_trash.delete(sessionId);
	// Anything left under its id (it should be none) gives way to the kept copy.
	await Promise.all([db.messages.where('[session_id+seq]').between(...range(sessionId)).delete(), db.blobs.where('[session_id+id]').between(...range(sessionId)).delete()]);
	await Promise.all([db.sessions.put(kept.session), db.messages.bulkPut(kept.messages), db.blobs.bulkPut(kept.blobs)]);
	return kept;
}

/** One session in "Recently deleted", as the list shows it. */
export interface DeletedSession {
	id: string;
	title: string;
	/** When it was deleted, by the clock of the device that deleted it (null: not known). */
	deleted_at: number | null;
	/** When this device learned of the deletion: its days in "Recently deleted" run from then. */
	learned_at: number;
	messages: number;
	attachments: number;
}

/** What "Recently deleted" lists, the latest deletion learned first. */
export async function listRecentlyDeleted(db: PalimpsestDb): Promise<DeletedSession[]> {
	const rows = await db.sync_trash.orderBy('at').reverse().toArray();
	const entries = await db.sync_docs.bulkGet(rows.map((row) => `session:${row.session_id}`));
	return rows.map((row, i) => {
		const deletedAt = (entries[i]?.doc as { fields?: { deleted_at?: unknown } } | undefined)?.fields?.deleted_at;
		return {
			id: row.session_id,
			title: row.session.title,
			deleted_at: typeof deletedAt === 'number' && Number.isFinite(deletedAt) ? deletedAt : null,
			learned_at: row.at,
			messages: row.session.message_count,
			attachments: row.blobs.length
		};
	});
}

/**
 * Restore: the session comes back here with its messages and Blobs, in one transaction. Its rows
 * come back as a write of this device, so sync sends it as restored and every device gets it
 * back. False when it is no longer in the trash (restored meanwhile, or deleted for good).
 */
export async function restoreFromTrash(db: PalimpsestDb, sessionId: string): Promise<boolean> {
	return db.transaction('rw', [db.sessions, db.messages, db.blobs, db.sync_trash], async () => (await takeSessionFromTrash(db, sessionId)) !== undefined);
}
