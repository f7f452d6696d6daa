// Sends the Blobs of messages just written to the server, each as a standalone attachment PUT of
// its message's document. Why not inline `_attachments` in `_bulk_docs`: base64 makes a Blob a
// third larger and a string in memory, and one image could pass the bound on a request's bytes
// (CouchDB's max_http_request_size, often ~1 MB behind a proxy) that keeps every other batch
// small. A standalone PUT carries one Blob's bytes as they are, read by the browser from where
// it keeps them: each request is as small as one Blob can be, and memory stays flat. The
// document goes first (its `blobs` list says what will follow), so another device may see a
// message before its Blobs; it shows them as on their way, and takes them with the revision
// that carries them.
import type { CouchClient } from './couch-client';
import type { MessageDoc } from './message-document';
import { SyncError } from './sync-error';
import type { SyncStore } from './sync-store';

/** A message document on the server at `rev`, which holds the attachments `attached` already. */
export interface BlobUpload {
	id: string;
	doc: MessageDoc;
	rev: string;
	attached: readonly string[];
}

/** The Blobs of `doc` that travel (within the sending device's limit). */
export function blobsToSend(doc: MessageDoc): string[] {
	return (doc.blobs ?? []).filter((entry) => entry.limit === undefined).map((entry) => entry.id);
}

/**
 * Adds to each document the Blobs it does not hold yet, one request each; returns the documents'
 * new revisions. A Blob gone from this device since, or one the server refuses for itself (too
 * large, 413, or malformed, 400), is left out, so it cannot hold up the rest: the other device
 * then says it has not come.
 */
export async function pushBlobs(client: CouchClient, store: SyncStore, uploads: readonly BlobUpload[], signal?: AbortSignal): Promise<Map<string, string>> {
	const revs = new Map<string, string>();
	for (const upload of uploads) {
		let rev = upload.rev;
		for (const id of blobsToSend(upload.doc)) {
			if (upload.attached.includes(id)) continue;
			signal?.throwIfAborted();
			const data = await store.readBlob?.(upload.doc.session_id, id);
			if (!data) continue;
			try {
				rev = await client.putAttachment(upload.id, id, rev, data, signal);
			} catch (error) {
				if (!(error instanceof SyncError && (error.status === 413 || error.status === 400))) throw error;
			}
		}
		if (rev !== upload.rev) revs.set(upload.id, rev);
	}
	return revs;
}
