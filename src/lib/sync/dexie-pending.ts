// What a sync pass sends next, read from the profile's database: the documents taken in and not
// yet sent, oldest edit first, then this device's latest changes from the outbox, a slice at a
// time as the batch needs them (dexie-stamp.ts). A slice's documents go into the batch as its
// stamp built them, from the rows it read, so a first sync reads each row once.
import { Dexie, type PalimpsestDb } from '../db/database';
import type { BlobRow, MessageRow, SyncDocRow } from '../db/schema';
import { assistantDocOf } from './dexie-assistants';
import { blobEntries, readSessionBlobRows } from './dexie-blobs';
import { messageClocksOf, sessionDocOf } from './dexie-context';
import { promptDocOf } from './dexie-prompts';
import { readMessagesOf } from './dexie-read-runs';
import { blobDocId, messageDocId, parseDocId } from './document-ids';
import { fieldsOfRow, type MessageDoc } from './message-document';
import { pendingBytes } from './pending-body';
import type { PendingCursor, PendingDoc } from './sync-store';

/** The entries to send, by edit (those after edit `after`). */
export function dirtyAfter(db: PalimpsestDb, after: number | null) {
	return db.sync_docs.where('[dirty+edit]').between([1, after ?? Dexie.minKey], [1, Dexie.maxKey], after === null, true);
}

/** Rows a stamp read already: the message rows and the Blob rows they show, by session. */
export interface ReadRows {
	messages: Map<string, MessageRow>;
	blobs: Map<string, Map<string, BlobRow>>;
}

/**
 * The documents to send for pending entries: a message's from its row and clocks (or as held), a
 * Blob's by reference, a session's or prompt's as kept. `read`: rows read already (by document id).
 */
export async function pendingDocsOf(db: PalimpsestDb, rows: readonly SyncDocRow[], limit: number, read?: ReadRows): Promise<PendingDoc[]> {
	const messages = rows.filter((row) => row.kind === 'message' && !row.held && !row.purge && !read?.messages.has(row.id));
	const found = await readMessagesOf(db, messages.map((row) => [row.session_id, row.position!]));
	const rowOf = new Map([...(read?.messages ?? []), ...found.map((row) => [messageDocId(row.session_id, row.position), row] as const)]);
	const blobIds = rows.flatMap((row) => (row.kind === 'blob' && !row.purge ? [parseDocId(row.id)] : [])).flatMap((id): [string, string][] => (id?.kind === 'blob' ? [[id.session_id, id.blob_id]] : []));
	const [blobRows, blobs] = await Promise.all([readSessionBlobRows(db, found), blobIds.length ? db.blobs.bulkGet(blobIds) : []]);
	for (const [sessionId, own] of read?.blobs ?? []) blobRows.set(sessionId, new Map([...own, ...(blobRows.get(sessionId) ?? [])]));
	const blobOf = new Map(blobs.flatMap((blob) => (blob ? [[blobDocId(blob.session_id, blob.id), blob] as const] : [])));
	const docs: PendingDoc[] = [];
	for (const row of rows) {
		for (const rev of row.losers ?? []) docs.push({ kind: 'delete', id: row.id, edit: row.edit, rev });
		if (row.purge) {
			if (row.rev) docs.push({ kind: 'delete', id: row.id, edit: row.edit, rev: row.rev });
			continue;
		}
		if (row.kind === 'session') {
			const doc = sessionDocOf(row);
			if (doc) docs.push({ kind: 'session', id: row.id, edit: row.edit, rev: row.rev, doc });
		} else if (row.kind === 'prompt') {
			const doc = promptDocOf(row);
			if (doc) docs.push({ kind: 'prompt', id: row.id, edit: row.edit, rev: row.rev, doc });
		} else if (row.kind === 'assistant') {
			const doc = assistantDocOf(row);
			if (doc) docs.push({ kind: 'assistant', id: row.id, edit: row.edit, rev: row.rev, doc });
		} else if (row.kind === 'blob') {
			const blob = blobOf.get(row.id);
			if (blob) docs.push({ kind: 'blob', id: row.id, edit: row.edit, rev: null, session_id: blob.session_id, blob_id: blob.id, size: blob.data.size });
		} else if (row.held) docs.push({ kind: 'message', id: row.id, edit: row.edit, rev: row.rev, doc: row.doc as MessageDoc });
		else {
			const message = rowOf.get(row.id);
			const clocks = messageClocksOf(row);
			if (!message || !clocks) continue;
			const fields = fieldsOfRow(message, blobEntries(message, blobRows.get(message.session_id) ?? new Map(), limit));
			docs.push({ kind: 'message', id: row.id, edit: row.edit, rev: row.rev, doc: { session_id: row.session_id, position: row.position!, clock: clocks.clock, fields, clocks: clocks.clocks, removed: false } });
		}
	}
	return docs;
}

/** A batch being filled up to `limitBytes` of bodies, and the cursor after what it holds. */
export class PendingBatch {
	readonly docs: PendingDoc[] = [];
	readonly #ids = new Set<string>();
	#bytes = 0;

	constructor(
		readonly limitBytes: number,
		readonly cursor: PendingCursor
	) {}

	/**
	 * Adds `docs` (in edit order) while they fit; false once the batch is full. A row's documents
	 * (a losing branch to delete, then the document) go in together, and the cursor moves past each row added.
	 */
	add(docs: readonly PendingDoc[]): boolean {
		for (let at = 0; at < docs.length; ) {
			let end = at + 1;
			while (end < docs.length && docs[end].id === docs[at].id && docs[end].edit === docs[at].edit) end++;
			const group = docs.slice(at, end);
			const size = group.reduce((sum, entry) => sum + pendingBytes(entry), 0);
			if (this.docs.length && this.#bytes + size > this.limitBytes) return false;
			// Edited again since this batch read it (a change taken in meanwhile): its latest edit goes instead.
			if (this.#ids.has(group[0].id)) {
				this.#bytes -= this.docs.filter((entry) => entry.id === group[0].id).reduce((sum, entry) => sum + pendingBytes(entry), 0);
				this.docs.splice(0, this.docs.length, ...this.docs.filter((entry) => entry.id !== group[0].id));
			}
			this.#ids.add(group[0].id);
			this.#bytes += size;
			this.docs.push(...group);
			// A message new to sync (edit 0) has no entry yet: the outbox's place tells where the read goes on.
			if (group[0].edit) this.cursor.edit = group[0].edit;
			at = end;
		}
		return true;
	}
}
