// The Blobs of synced messages in the profile's database: which a message document names (and
// which of them stay on this device, over its limit), the bytes that came checked before they
// are kept, and on each arrived message a note of the Blobs that did not come, and why.
import type { PalimpsestDb } from '../db/database';
import { blobIdsOf } from '../db/message-verbs';
import type { BlobNotSynced, BlobRow, MessageRow } from '../db/schema';
import { checkBlob, typedAs } from '../attachments/check-bytes';
import { declaredBlobs, type DeclaredBlob } from '../attachments/declared-blobs';
import { messageDocId } from './document-ids';
import type { BlobEntry, MessageDoc } from './message-document';
import type { PulledDoc } from './sync-store';

/** The Blobs `rows` refer to, by id (reads only their rows: a Blob's bytes are read when sent). */
export async function readBlobRows(db: PalimpsestDb, sessionId: string, rows: readonly MessageRow[]): Promise<Map<string, BlobRow>> {
	const ids = [...new Set(blobIdsOf(rows))];
	if (!ids.length) return new Map();
	const found = await db.blobs.bulkGet(ids.map((id): [string, string] => [sessionId, id]));
	return new Map(found.flatMap((row) => (row ? [[row.id, row]] : [])));
}

/**
 * Marks on each arrived message the Blobs it refers to that are not here, and why (see
 * BlobNotSynced); a later revision that brings them clears the mark, and the transcript shows them.
 */
export async function noteBlobsNotSynced(db: PalimpsestDb, sessionId: string, messages: ReadonlyArray<{ doc: MessageDoc; attached?: readonly string[] }>, limit: number): Promise<void> {
	const withBlobs = messages.filter(({ doc }) => doc.blobs?.length);
	if (!withBlobs.length) return;
	const [rows, present] = await Promise.all([
		db.messages.where('[session_id+position]').anyOf(withBlobs.map(({ doc }) => [sessionId, doc.position])).toArray(),
		db.blobs.bulkGet(withBlobs.flatMap(({ doc }) => doc.blobs!.map((entry): [string, string] => [sessionId, entry.id])))
	]);
	const here = new Set(present.flatMap((row) => (row ? [row.id] : [])));
	const byPosition = new Map(rows.map((row) => [row.position, row]));
	const changed: MessageRow[] = [];
	for (const { doc, attached } of withBlobs) {
		const row = byPosition.get(doc.position);
		if (!row) continue;
		const missing = doc.blobs!.filter((entry) => !here.has(entry.id)).map((entry) => notSynced(entry, attached ?? [], limit));
		if (JSON.stringify(missing) === JSON.stringify(row.blobs_not_synced ?? [])) continue;
		const { blobs_not_synced: _, ...rest } = row;
		changed.push(missing.length ? { ...rest, blobs_not_synced: missing } : rest);
	}
	await db.messages.bulkPut(changed);
}

/** What a message document says of the Blobs its row refers to: each one's type and size, and the limit of those too large to send. */
export function blobEntries(row: MessageRow, blobs: ReadonlyMap<string, BlobRow>, limit: number): BlobEntry[] {
	return [...new Set(blobIdsOf([row]))].flatMap((id) => {
		const blob = blobs.get(id);
		if (!blob) return [];
		const size = blob.data.size;
		return [{ id, type: blob.type, size, ...(size > limit ? { limit } : {}) }];
	});
}

/** Why a Blob of an arrived message is not here. */
function notSynced(entry: BlobEntry, attached: readonly string[], limit: number): BlobNotSynced {
	if (entry.limit !== undefined) return { id: entry.id, size: entry.size, reason: 'sender-limit', limit: entry.limit };
	if (entry.size > limit) return { id: entry.id, size: entry.size, reason: 'own-limit', limit };
	return { id: entry.id, size: entry.size, reason: attached.includes(entry.id) ? 'refused' : 'arriving' };
}

/**
 * The Blobs that came with pulled messages and may be kept, by document id: each one the
 * message refers to and names in its `blobs`, of the size it says, whose bytes pass the one check
 * of every file's bytes as what the message says they are (see checkBlob), kept as the type the
 * check gives. One id is one file: an id two messages of a session say different things of (in
 * one message, or in two of the page) is kept as the first says, or not at all.
 */
export async function keptBlobs(docs: readonly PulledDoc[]): Promise<Map<string, BlobRow[]>> {
	const kept = new Map<string, BlobRow[]>();
	const seen = new Map<string, DeclaredBlob>();
	for (const pulled of docs) {
		if (pulled.kind !== 'message' || !pulled.received?.length) continue;
		const { doc } = pulled;
		// The message's own fields say what each Blob it refers to is, as a row's do.
		const { byId, disagreement } = declaredBlobs([doc.message as MessageRow]);
		const named = new Map((doc.blobs ?? []).map((entry) => [entry.id, entry]));
		const rows: BlobRow[] = [];
		for (const blob of pulled.received) {
			const declared = byId.get(blob.id);
			const entry = named.get(blob.id);
			if (!declared || !entry || entry.size !== blob.data.size || declared.size !== blob.data.size || disagreement?.id === blob.id) continue;
			const key = `${doc.session_id}\u0000${blob.id}`;
			const earlier = seen.get(key);
			if (earlier && (earlier.kind !== declared.kind || earlier.type !== declared.type)) continue;
			seen.set(key, declared);
			const checked = await checkBlob(blob.data, declared);
			if (checked.ok) rows.push({ session_id: doc.session_id, id: blob.id, type: checked.type, data: typedAs(blob.data, checked.type) });
		}
		kept.set(messageDocId(doc.session_id, doc.position), rows);
	}
	return kept;
}

/**
 * Writes Blobs that arrived, in the caller's transaction over `blobs`; never over a Blob of the
 * same id of another type: one id is one file, whatever a later message says of it.
 */
export async function putArrivedBlobs(db: PalimpsestDb, rows: readonly BlobRow[]): Promise<void> {
	if (!rows.length) return;
	const here = await db.blobs.bulkGet(rows.map((row): [string, string] => [row.session_id, row.id]));
	await db.blobs.bulkPut(rows.filter((row, at) => !here[at] || here[at].type === row.type));
}
