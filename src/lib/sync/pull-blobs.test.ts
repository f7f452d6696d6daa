// The Blobs of a page of pulled messages are fetched before the page is applied, and held at
// once only up to a bound: a page whose Blobs pass it is asked for again smaller, unless it is
// a single change; bytes that are not what their message says are left out, not retried.
import { describe, expect, it } from 'vitest';
import type { ChangesPage, CouchClient } from './couch-client';
import type { BlobEntry } from './message-document';
import { pullBlobs } from './pull-blobs';
import { badAnswer } from './sync-error';
import type { PulledDoc, SyncStore } from './sync-store';

const POSITIONS = ['01KBZ000000000000000000001', '01KBZ000000000000000000002'];

function message(at: number, blobs: BlobEntry[]): PulledDoc {
	return {
		kind: 'message',
		rev: '1-abc',
		doc: { session_id: 's', position: POSITIONS[at], message: { id: `m${at}`, role: 'tool', content: '', status: 'complete', kind: 'message', created_at: 1 }, blobs },
		attached: blobs.map((entry) => entry.id)
	};
}

const page = (docs: PulledDoc[]): ChangesPage => ({ docs, skipped: [], count: docs.length, ids: docs.map(() => null), lastSeq: '2', pending: null });
/** A store that wants every Blob a message holds. */
const store = { wantedBlobs: async (docs: readonly PulledDoc[]) => docs.map((doc) => (doc.kind === 'message' ? (doc.doc.blobs ?? []) : [])) } as unknown as SyncStore;

function client(bad: string[] = []): { client: CouchClient; fetched: string[] } {
	const fetched: string[] = [];
	const fake = {
		getAttachment: async (_doc: string, name: string, _rev: string, { size, type }: { size: number; type: string }) => {
			fetched.push(name);
			if (bad.includes(name)) throw badAnswer(`attachment ${name} is larger than its message says`);
			return new Blob([new Uint8Array(size)], { type });
		}
	};
	return { client: fake as unknown as CouchClient, fetched };
}

describe('pullBlobs', () => {
	it("fetches each message's Blobs with it, and asks for a smaller page when they pass the bound", async () => {
		const docs = [message(0, [{ id: 'a', type: 'image/png', size: 600 }]), message(1, [{ id: 'b', type: 'image/png', size: 600 }])];
		const { client: fits, fetched } = client();
		const read = await pullBlobs(fits, store, page(docs), undefined, 2_000);
		expect(fetched).toEqual(['a', 'b']);
		expect(read.docs.map((doc) => (doc.kind === 'message' ? doc.received?.map((blob) => [blob.id, blob.data.size]) : null))).toEqual([[['a', 600]], [['b', 600]]]);

		const { client: tooMuch, fetched: none } = client();
		await expect(pullBlobs(tooMuch, store, page(docs), undefined, 1_000)).rejects.toMatchObject({ kind: 'too-large', status: undefined });
		expect(none).toEqual([]);
		// A single change is fetched whatever its Blobs weigh: it cannot be split.
		const { client: single, fetched: one } = client();
		await pullBlobs(single, store, page(docs.slice(0, 1)), undefined, 100);
		expect(one).toEqual(['a']);
	});

	it('leaves out bytes that are not what the message says, and keeps the rest', async () => {
		const { client: lying } = client(['a']);
		const read = await pullBlobs(lying, store, page([message(0, [{ id: 'a', type: 'image/png', size: 10 }, { id: 'b', type: 'image/png', size: 10 }])]));
		expect(read.docs[0].kind === 'message' && read.docs[0].received?.map((blob) => blob.id)).toEqual(['b']);
	});
});
