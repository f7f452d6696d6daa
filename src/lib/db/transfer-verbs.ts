// Reads for exporting sessions and the write of an import. An import writes in slices of whole
// sessions (sessions/plan-import-slices.ts); each slice is one transaction that lands whole or,
// on a full disk or a closed tab, not at all, and is strict, so once it reports success a crash
// or power cut cannot take it back.
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

/**
 * The sessions with all their message rows (compacted ones too), read together so each is
 * consistent. Every request is under way at once: IndexedDB answers them one after another
 * without waiting for this thread in between.
 */
export async function readSessionsWithMessages(db: PalimpsestDb, ids: string[]): Promise<SessionWithMessages[]> {
	return db.transaction('r', db.sessions, db.messages, async () => {
		const [sessions, messages] = await Promise.all([
			db.sessions.bulkGet(ids),
			Promise.all(ids.map((id) => db.messages.where('[session_id+seq]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray()))
		]);
		const found: SessionWithMessages[] = [];
		sessions.forEach((session, i) => session && found.push({ session, messages: messages[i] }));
		return found;
	});
}

export interface ImportWrite {
	added: SessionWithMessages[];
	skipped: SessionWithMessages[];
}

/**
 * Adds the sessions this profile does not have yet, with their messages, in one transaction;
 * a session whose id is already here is skipped with all its messages (the copy here stays as
 * it is). Two rounds of bulk requests: what is here, then the writes, so a slice of thousands
 * of rows costs what its rows cost IndexedDB.
 */
export async function writeImportedSessions(db: PalimpsestDb, entries: SessionWithMessages[]): Promise<ImportWrite> {
	const strict = strictTwin(db);
	return strict.transaction('rw', strict.sessions, strict.messages, async () => {
		const ids = entries.map((e) => e.session.id);
		// Message rows left by a session that no longer exists would show up in the new one: one
		// cursor looks in every session's range, read together with the sessions themselves.
		const ranges = ids.map((id): [unknown, unknown] => [[id, Dexie.minKey], [id, Dexie.maxKey]]);
		const [here, rows] = await Promise.all([
			strict.sessions.bulkGet(ids),
			ids.length ? strict.messages.where('[session_id+seq]').inAnyRange(ranges).primaryKeys() : []
		]);
		const added = entries.filter((_, i) => here[i] === undefined);
		const skipped = entries.filter((_, i) => here[i] !== undefined);
		const addedIds = new Set(added.map((e) => e.session.id));
		const leftover = rows.filter(([sessionId]) => addedIds.has(sessionId));
		// Such rows are rare; their deletion must land before the new rows are added.
		if (leftover.length) await strict.messages.bulkDelete(leftover);
		await Promise.all([strict.sessions.bulkAdd(added.map((e) => e.session)), strict.messages.bulkAdd(added.flatMap((e) => e.messages))]);
		return { added, skipped };
	});
}
