// Fetches the Blobs of a page of pulled documents before the page is applied, so each Blob and
// its document are written in one transaction. The feed brings attachment stubs only (not
// `attachments=true`, which would inline every Blob of up to a page of changes as base64 in one
// answer): each Blob is one GET of its bytes as they are, read up to the size its document says.
// A page whose Blobs together pass PAGE_BLOB_BYTES is asked for again smaller (see
// pull-changes.ts), so the Blobs held at once stay bounded too.
import type { CouchClient } from './couch-client';
import { blobDocId, messageDocId } from './document-ids';
import { SyncError } from './sync-error';
import type { PulledDoc, SyncStore } from './sync-store';

/** The Blobs one page of changes may bring at most (unless a single change holds more). */
export const PAGE_BLOB_BYTES = 64 * 1024 * 1024;

/** Bytes that are not what their document says are left out (the message then says so); a failure to fetch is retried. */
async function fetchBytes(fetch: () => Promise<Blob | null>): Promise<Blob | undefined> {
	try {
		return (await fetch()) ?? undefined;
	} catch (error) {
		if (error instanceof SyncError && error.kind === 'bad-answer') return undefined;
		throw error;
	}
}

/** `docs` with the bytes this device wants of their Blobs, fetched. */
export async function pullBlobs(client: CouchClient, store: SyncStore, docs: readonly PulledDoc[], signal?: AbortSignal, pageBytes = PAGE_BLOB_BYTES): Promise<PulledDoc[]> {
	if (!docs.some((doc) => doc.kind === 'blob' || (doc.kind === 'message' && doc.legacy?.attached?.length))) return [...docs];
	const wanted = await store.wantedBlobs(docs);
	const total = docs.reduce((bytes, doc, at) => bytes + (wanted[at] ? (doc.kind === 'blob' ? doc.size : 0) : 0), 0);
	if (total > pageBytes && docs.length > 1) throw new SyncError('too-large', `The Blobs of these changes pass ${pageBytes} bytes.`, true);
	const out: PulledDoc[] = [];
	for (const [at, doc] of docs.entries()) {
		if (!wanted[at]) {
			out.push(doc);
			continue;
		}
		signal?.throwIfAborted();
		if (doc.kind === 'blob') {
			const received = await fetchBytes(() => client.getAttachment(blobDocId(doc.session_id, doc.blob_id), 'data', doc.rev, doc, signal));
			out.push(received ? { ...doc, received } : doc);
		} else if (doc.kind === 'message') {
			// A message of format 1 held its Blobs as attachments of its own document.
			const entries = new Map((doc.doc.fields.blobs ?? []).map((entry) => [entry.id, entry]));
			const legacyBlobs: Array<{ id: string; type: string; data: Blob }> = [];
			for (const id of doc.legacy?.attached ?? []) {
				const entry = entries.get(id);
				if (!entry) continue;
				const data = await fetchBytes(() => client.getAttachment(messageDocId(doc.doc.session_id, doc.doc.position), id, doc.rev, entry, signal));
				if (data) legacyBlobs.push({ id, type: entry.type, data });
			}
			out.push({ ...doc, legacyBlobs });
		} else out.push(doc);
	}
	return out;
}
