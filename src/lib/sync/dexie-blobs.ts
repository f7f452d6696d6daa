// The Blobs of synced messages in the profile's database: which a message document names (and
// which of them stay on this device, over its limit), the bytes that came checked before they
// are kept, and on each message a note of the Blobs it shows that are not here, and why.
import { Dexie, type PalimpsestDb } from '../db/database';
import { blobIdsOf } from '../db/message-verbs';
import type { BlobNotSynced, BlobRow, MessageRow } from '../db/schema';
import { checkBlob, IMAGE_LABELS, typedAs, type DeclaredBytes } from '../attachments/check-bytes';
import { declaredBlobs } from '../attachments/declared-blobs';
import { blobDocId, messageDocId } from './document-ids';
import type { BlobEntry } from './message-document';
import type { PulledDoc } from './sync-store';

/** The Blobs `rows` refer to, by id (reads only their rows: a Blob's bytes are read when sent). */
export async function readBlobRows(db: PalimpsestDb, sessionId: string, rows: readonly MessageRow[]): Promise<Map<string, BlobRow>> {
	const ids = [...new Set(blobIdsOf(rows))];
	if (!ids.length) return new Map();
	const found = await db.blobs.bulkGet(ids.map((id): [string, string] => [sessionId, id]));
	return new Map(found.flatMap((row) => (row ? [[row.id, row]] : [])));
}

/** The Blobs each session's rows among `rows` refer to, by session (sessions whose rows show none are read not at all). */
export async function readSessionBlobRows(db: PalimpsestDb, rows: readonly MessageRow[]): Promise<Map<string, Map<string, BlobRow>>> {
	const bySession = new Map<string, MessageRow[]>();
	for (const row of rows) (bySession.get(row.session_id) ?? bySession.set(row.session_id, []).get(row.session_id)!).push(row);
	return new Map(await Promise.all([...bySession].map(async ([sessionId, own]) => [sessionId, await readBlobRows(db, sessionId, own)] as const)));
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

type Declared = DeclaredBytes & { size?: number };

/**
 * What the messages of each session with Blobs among `docs` say each of its Blobs is: those here
 * and those arriving, read together. One id is one file: an id two messages say different things
 * of is believed of neither (null).
 */
async function declarationsOf(db: PalimpsestDb, docs: readonly PulledDoc[]): Promise<Map<string, Map<string, Declared | null>>> {
	const sessions = new Set(docs.flatMap((doc) => (doc.kind === 'blob' && doc.received ? [doc.session_id] : doc.kind === 'message' && doc.legacyBlobs?.length ? [doc.doc.session_id] : [])));
	const bySession = new Map<string, Map<string, Declared | null>>();
	for (const sessionId of sessions) {
		const here = await db.messages.where('[session_id+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).toArray();
		const arriving = docs.flatMap((doc) => (doc.kind === 'message' && doc.doc.session_id === sessionId ? [doc.doc.fields] : []));
		const { byId, disagreement } = declaredBlobs([...arriving, ...here]);
		const declared = new Map<string, Declared | null>([...byId].map(([id, { kind, type, size }]) => [id, { kind, type, size }]));
		if (disagreement) declared.set(disagreement.id, null);
		bySession.set(sessionId, declared);
	}
	return bySession;
}

/** A Blob no message here says anything of yet: an image when its document says one of the image types, else a file. */
const byItsOwnType = (type: string): Declared => ({ kind: Object.hasOwn(IMAGE_LABELS, type) ? 'image' : 'file', type });

/** `data` as kept, when its bytes pass the one check of every file's bytes as what its messages say it is (see checkBlob). */
async function checked(sessionId: string, id: string, data: Blob, declared: Declared | null): Promise<BlobRow | null> {
	if (!declared || (declared.size !== undefined && declared.size !== data.size)) return null;
	const result = await checkBlob(data, declared);
	return result.ok ? { session_id: sessionId, id, type: result.type, data: typedAs(data, result.type) } : null;
}

/**
 * The Blobs that came with documents and may be kept, by blob document id (a format-1 message's,
 * by its document id and the Blob's): each of the size its document says, whose bytes pass the
 * one check of every file's bytes as what the session's messages say they are (by the type its
 * own document says while no message says), kept as the type the check gives.
 */
export async function keptBlobs(db: PalimpsestDb, docs: readonly PulledDoc[]): Promise<Map<string, BlobRow>> {
	const declarations = await declarationsOf(db, docs);
	const declaredIn = (sessionId: string, id: string, type: string) => {
		const said = declarations.get(sessionId)?.get(id);
		return said === undefined ? byItsOwnType(type) : said;
	};
	const kept = new Map<string, BlobRow>();
	for (const doc of docs) {
		if (doc.kind === 'blob' && doc.received) {
			if (doc.received.size !== doc.size) continue;
			const row = await checked(doc.session_id, doc.blob_id, doc.received, declaredIn(doc.session_id, doc.blob_id, doc.type));
			if (row) kept.set(blobDocId(doc.session_id, doc.blob_id), row);
		} else if (doc.kind === 'message' && doc.legacyBlobs) {
			const named = new Map((doc.doc.fields.blobs ?? []).map((entry) => [entry.id, entry]));
			for (const blob of doc.legacyBlobs) {
				const entry = named.get(blob.id);
				if (!entry || entry.size !== blob.data.size) continue;
				const row = await checked(doc.doc.session_id, blob.id, blob.data, declaredIn(doc.doc.session_id, blob.id, entry.type));
				if (row) kept.set(`${messageDocId(doc.doc.session_id, doc.doc.position)}\n${blob.id}`, row);
			}
		}
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
