// Reads for exporting sessions and the write of an import. An import writes in slices of whole
// sessions (sessions/plan-import-slices.ts); each slice is one transaction that lands whole or,
// on a full disk or a closed tab, not at all, and is strict, so once it reports success a crash
// or power cut cannot take it back.
import { Dexie, type PalimpsestDb } from './database';
import { cutLinks, linkTargets, sameOrigin } from './session-links';
import { strictTwin } from './strict-twin';
import type { BlobRow, MessageRow, SessionRow } from './schema';

export interface SessionWithMessages {
	session: SessionRow;
	messages: MessageRow[];
	/** The bytes of the images its messages show. */
	images?: BlobRow[];
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
	return db.transaction('r', db.sessions, db.messages, db.blobs, async () => {
		const [sessions, messages, images] = await Promise.all([
			db.sessions.bulkGet(ids),
			Promise.all(ids.map((id) => db.messages.where('[session_id+seq]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray())),
			Promise.all(ids.map((id) => db.blobs.where('[session_id+id]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray()))
		]);
		const found: SessionWithMessages[] = [];
		sessions.forEach((session, i) => session && found.push({ session, messages: messages[i], ...(images[i].length ? { images: images[i] } : {}) }));
		return found;
	});
}

export interface ImportWrite {
	/** The sessions added, as written (without the links they lost). */
	added: SessionWithMessages[];
	skipped: SessionWithMessages[];
	/** Links the added sessions lost, as they named a session this import did not write. */
	linksCut: number;
}

/**
 * Adds the sessions this profile does not have yet, with their messages, in one transaction;
 * a session whose id is already here is skipped with all its messages (the copy here stays as
 * it is). The sessions of an import carry its id (SessionRow.import_id); an added session keeps
 * a link (its parent, a compaction marker's earlier session) only to a session of that same
 * import: one added by this write, or one already here with the same import id. Any other link
 * is cut, so an imported session never continues, or takes along, one of yours or another
 * import's, even when the file holds a copy of it that was skipped. Decided here, against what
 * is here as the slice commits, so no other tab's write can slip in between.
 *
 * Why a session already here with the same import id counts as written by this import: the
 * import id is a digest of the file's text, so such a session was written by an earlier attempt
 * of this same file (one that stopped part-way), and importing the file again must complete its
 * lineages. A session made here later that continues an imported one inherits its import id
 * too, but under a new id the file, written before it, cannot name.
 *
 * Two rounds of bulk requests: what is here, then the writes, so a slice of thousands of rows
 * costs what its rows cost IndexedDB.
 */
export async function writeImportedSessions(db: PalimpsestDb, entries: SessionWithMessages[]): Promise<ImportWrite> {
	const strict = strictTwin(db);
	const ids = entries.map((e) => e.session.id);
	const inSlice = new Set(ids);
	const linked = [...new Set(entries.flatMap(linkTargets))].filter((id) => !inSlice.has(id));
	return strict.transaction('rw', strict.sessions, strict.messages, strict.blobs, async () => {
		// Message rows left by a session that no longer exists would show up in the new one: one
		// cursor looks in every session's range, read together with the sessions themselves.
		const ranges = ids.map((id): [unknown, unknown] => [[id, Dexie.minKey], [id, Dexie.maxKey]]);
		const [here, rows, targets] = await Promise.all([
			strict.sessions.bulkGet(ids),
			ids.length ? strict.messages.where('[session_id+seq]').inAnyRange(ranges).primaryKeys() : [],
			strict.sessions.bulkGet(linked)
		]);
		const skipped = entries.filter((_, i) => here[i] !== undefined);
		const fresh = entries.filter((_, i) => here[i] === undefined);
		// What is here once this write lands: the sessions a kept link may name.
		const stored = new Map<string, SessionRow>();
		for (const row of [...here, ...targets]) if (row) stored.set(row.id, row);
		for (const entry of fresh) stored.set(entry.session.id, entry.session);
		let linksCut = 0;
		const added = fresh.map((entry) => {
			const kept = cutLinks(entry, (id) => {
				const target = stored.get(id);
				return target !== undefined && sameOrigin(target, entry.session);
			});
			linksCut += kept.cut;
			return kept.entry;
		});
		const addedIds = new Set(added.map((e) => e.session.id));
		const leftover = rows.filter(([sessionId]) => addedIds.has(sessionId));
		// Such rows are rare; their deletion must land before the new rows are added.
		if (leftover.length) await strict.messages.bulkDelete(leftover);
		await Promise.all([
			strict.sessions.bulkAdd(added.map((e) => e.session)),
			strict.messages.bulkAdd(added.flatMap((e) => e.messages)),
			strict.blobs.bulkPut(added.flatMap((e) => e.images ?? []))
		]);
		return { added, skipped, linksCut };
	});
}
