// The Blobs of synced messages in the profile's database: which a message document names (and
// which of them stay on this device, over its limit), and on each message a note of the Blobs
// it shows that are not here, and why.
import type { PalimpsestDb } from '../db/database';
import { blobIdsOf } from '../db/message-verbs';
import type { BlobNotSynced, BlobRow, MessageRow } from '../db/schema';
import type { BlobEntry } from './message-document';

/** The Blobs `rows` refer to, by id (reads only their rows: a Blob's bytes are read when sent). */
export async function readBlobRows(db: PalimpsestDb, sessionId: string, rows: readonly MessageRow[]): Promise<Map<string, BlobRow>> {
	const ids = [...new Set(blobIdsOf(rows))];
	if (!ids.length) return new Map();
	const found = await db.blobs.bulkGet(ids.map((id): [string, string] => [sessionId, id]));
	return new Map(found.flatMap((row) => (row ? [[row.id, row]] : [])));
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

/** Why a Blob of a message from elsewhere is not here. */
function notSynced(entry: BlobEntry, limit: number, refused: ReadonlySet<string>): BlobNotSynced {
	if (entry.limit !== undefined) return { id: entry.id, size: entry.size, reason: 'sender-limit', limit: entry.limit };
	if (entry.size > limit) return { id: entry.id, size: entry.size, reason: 'own-limit', limit };
	return { id: entry.id, size: entry.size, reason: refused.has(entry.id) ? 'refused' : 'arriving' };
}

/**
 * `row` with its note of the Blobs it refers to that are not here (`entries`: what its document
 * says of them; `here`: the ids of those present), or the row unchanged when the note is the same.
 */
export function withBlobNote(row: MessageRow, entries: readonly BlobEntry[] | undefined, here: ReadonlySet<string>, limit: number, refused: ReadonlySet<string> = new Set()): MessageRow {
	const missing = (entries ?? []).filter((entry) => !here.has(entry.id)).map((entry) => notSynced(entry, limit, refused));
	if (JSON.stringify(missing) === JSON.stringify(row.blobs_not_synced ?? [])) return row;
	const { blobs_not_synced: _, ...rest } = row;
	return missing.length ? { ...rest, blobs_not_synced: missing } : rest;
}
