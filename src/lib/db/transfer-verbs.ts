// Reads for exporting sessions and the one write of an import. An import is a single
// transaction: it lands whole, or (a full disk, a closed tab) not at all; it is strict, so once
// it reports success a crash or power cut cannot take it back.
import { Dexie, type PalimpsestDb } from './database';
import { strictTwin } from './strict-twin';
import type { MessageRow, SessionRow } from './schema';

export interface SessionWithMessages {
	session: SessionRow;
	messages: MessageRow[];
}

/** Every session row, archived ones included. */
export function listAllSessions(db: PalimpsestDb): Promise<SessionRow[]> {
	return db.sessions.toArray();
}

/** The sessions with all their message rows (compacted ones too), read together so each is consistent. */
export async function readSessionsWithMessages(db: PalimpsestDb, ids: string[]): Promise<SessionWithMessages[]> {
	return db.transaction('r', db.sessions, db.messages, async () => {
		const sessions = await db.sessions.bulkGet(ids);
		const found = sessions.filter((row): row is SessionRow => row !== undefined);
		const messages = await Promise.all(
			found.map((row) =>
				db.messages.where('[session_id+seq]').between([row.id, Dexie.minKey], [row.id, Dexie.maxKey]).toArray()
			)
		);
		return found.map((session, i) => ({ session, messages: messages[i] }));
	});
}

export interface ImportWrite {
	added: SessionWithMessages[];
	skipped: SessionWithMessages[];
}

/**
 * Adds the sessions this profile does not have yet, with their messages, in one transaction;
 * a session whose id is already here is skipped with all its messages (the copy here stays as
 * it is). `onWritten(done, total)` follows the messages written.
 */
export async function writeImportedSessions(
	db: PalimpsestDb,
	entries: SessionWithMessages[],
	onWritten: (done: number, total: number) => void = () => {},
	batchSize = 5_000
): Promise<ImportWrite> {
	const strict = strictTwin(db);
	return strict.transaction('rw', strict.sessions, strict.messages, async () => {
		const present = new Set(await strict.sessions.where('id').anyOf(entries.map((e) => e.session.id)).primaryKeys());
		const added = entries.filter((e) => !present.has(e.session.id));
		const skipped = entries.filter((e) => present.has(e.session.id));
		await strict.sessions.bulkAdd(added.map((e) => e.session));
		// Message rows left by a session that no longer exists would show up in the new one.
		await Promise.all(
			added.map((e) =>
				strict.messages.where('[session_id+seq]').between([e.session.id, Dexie.minKey], [e.session.id, Dexie.maxKey]).delete()
			)
		);
		const rows = added.flatMap((e) => e.messages);
		onWritten(0, rows.length);
		for (let start = 0; start < rows.length; start += batchSize) {
			await strict.messages.bulkAdd(rows.slice(start, start + batchSize));
			onWritten(Math.min(rows.length, start + batchSize), rows.length);
		}
		return { added, skipped };
	});
}
