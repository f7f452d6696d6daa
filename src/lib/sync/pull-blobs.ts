// Fetches the Blobs of a page of pulled message documents, before the page is applied, so each
// message and its Blobs are written in one transaction. The feed brings attachment stubs only
// (not `attachments=true`, which would inline every Blob of up to a page of changes as base64
// in one answer): each Blob is then one GET of its bytes as they are, read up to the size its
// message says. A page whose Blobs together pass PAGE_BLOB_BYTES is asked for again smaller
// (see pull-changes.ts), so the Blobs held at once stay bounded too.
import type { ChangesPage, CouchClient } from './couch-client';
import { messageDocId } from './document-ids';
import { SyncError } from './sync-error';
import type { PulledDoc, ReceivedBlob, SyncStore } from './sync-store';

/** The Blobs one page of changes may bring at most (unless a single change holds more). */
export const PAGE_BLOB_BYTES = 64 * 1024 * 1024;

/** Each message of `page` with the Blobs this device wants of it, fetched. */
export async function pullBlobs(client: CouchClient, store: SyncStore, page: ChangesPage, signal?: AbortSignal, pageBytes = PAGE_BLOB_BYTES): Promise<ChangesPage> {
	if (!store.wantedBlobs || !page.docs.some((doc) => doc.kind === 'message' && doc.attached?.length)) return page;
	const wanted = await store.wantedBlobs(page.docs);
	const total = wanted.flat().reduce((bytes, entry) => bytes + entry.size, 0);
	if (total > pageBytes && page.count > 1) throw new SyncError('too-large', `The Blobs of these changes pass ${pageBytes} bytes.`, true);
	const docs: PulledDoc[] = [];
	for (const [at, doc] of page.docs.entries()) {
		const entries = wanted[at] ?? [];
		if (doc.kind !== 'message' || !entries.length) {
			docs.push(doc);
			continue;
		}
		const received: ReceivedBlob[] = [];
		for (const entry of entries) {
			signal?.throwIfAborted();
			try {
				const data = await client.getAttachment(messageDocId(doc.doc.session_id, doc.doc.position), entry.id, doc.rev, entry, signal);
				if (data) received.push({ id: entry.id, type: entry.type, data });
			} catch (error) {
				// Bytes that are not what the message says are left out (the message says so); a failure to fetch is retried.
				if (!(error instanceof SyncError && error.kind === 'bad-answer')) throw error;
			}
		}
		docs.push({ ...doc, received });
	}
	return { ...page, docs };
}
