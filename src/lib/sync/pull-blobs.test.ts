// The Blobs of a page of pulled documents are fetched before the page is applied, and held at
// once only up to a bound: a page whose Blobs pass it is asked for again smaller, unless it is
// a single change; bytes that are not what their document says are left out, not retried.
import { describe, expect, it } from 'vitest';
import type { CouchClient } from './couch-client';
import { pullBlobs } from './pull-blobs';
import { badAnswer } from './sync-error';
import type { PulledDoc, SyncStore } from './sync-store';

const blob = (id: string, size: number): PulledDoc => ({ kind: 'blob', rev: '1-abc', session_id: 's', blob_id: id, type: 'image/png', size });
/** A store that wants every Blob. */
const store = { wantedBlobs: async (docs: readonly PulledDoc[]) => docs.map((doc) => doc.kind === 'blob') } as unknown as SyncStore;

function client(bad: string[] = []): { client: CouchClient; fetched: string[] } {
	const fetched: string[] = [];
	const fake = {
		getAttachment: async (doc: string, _name: string, _rev: string, { size, type }: { size: number; type: string }) => {
			fetched.push(doc);
			if (bad.some((id) => doc.endsWith(`:${id}`))) throw badAnswer('the attachment is larger than its document says');
			return new Blob([new Uint8Array(size)], { type });
		}
	};
	return { client: fake as unknown as CouchClient, fetched };
}

describe('pullBlobs', () => {
	it('fetches each Blob with its document, and asks for a smaller page when they pass the bound', async () => {
		const docs = [blob('a', 600), blob('b', 600)];
		const { client: fits, fetched } = client();
		const read = await pullBlobs(fits, store, docs, undefined, 2_000);
		expect(fetched).toEqual(['blob:s:a', 'blob:s:b']);
		expect(read.map((doc) => doc.received?.size)).toEqual([600, 600]);

		const { client: tooMuch, fetched: none } = client();
		await expect(pullBlobs(tooMuch, store, docs, undefined, 1_000)).rejects.toMatchObject({ kind: 'too-large', status: undefined });
		expect(none).toEqual([]);
		// A single change is fetched whatever its Blobs weigh: it cannot be split.
		const { client: single, fetched: one } = client();
		await pullBlobs(single, store, docs.slice(0, 1), undefined, 100);
		expect(one).toEqual(['blob:s:a']);
	});

	it('leaves out bytes that are not what the document says, and keeps the rest', async () => {
		const { client: lying } = client(['a']);
		const read = await pullBlobs(lying, store, [blob('a', 10), blob('b', 10)]);
		expect(read.map((doc) => doc.received !== undefined)).toEqual([false, true]);
	});
});
