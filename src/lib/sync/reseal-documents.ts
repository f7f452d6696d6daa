// After a passphrase change, every document still sealed with the previous key is opened with it
// and sealed again with the new one, over its revision: a page of the changes feed at a time (the
// feed lists each document once, at its latest change), so a document written meanwhile, by a
// device that had not yet heard of the change, is met again further on.
import { BLOB_PREFIX } from './document-ids';
import type { Keyring } from './keyring';
import { sealBlob, type SealedClient } from './sealed-client';
import { openBytes, openJson, readSealed, sealJson, Unauthentic, type DocumentKey } from './seal-envelope';
import { KEY_DOC_ID } from './sync-key';

const PAGE = 100;

export interface ResealOptions {
	since: string;
	signal?: AbortSignal;
	/** After each page: where the feed was read up to, and how many documents were sealed again so far. */
	onPage?: (since: string, resealed: number) => Promise<void> | void;
}

/** Seals again what the previous key sealed, from `since` to the end of the feed; returns where it ended. */
export async function resealDocuments(client: SealedClient, keyring: Keyring, { since, signal, onPage }: ResealOptions): Promise<string> {
	const previous = keyring.previous;
	if (!previous) return since;
	const current = keyring.current;
	let resealed = 0;
	for (;;) {
		signal?.throwIfAborted();
		const page = await client.rawChanges(since, PAGE, signal);
		const stale = page.docs.filter((doc) => doc._id !== KEY_DOC_ID && doc._deleted !== true && readSealed(doc.sealed)?.kid === previous.kid);
		const bodies: Record<string, unknown>[] = [];
		for (const doc of stale) {
			const id = String(doc._id);
			try {
				if (id.startsWith(BLOB_PREFIX)) {
					if (await resealBlob(client, previous, current, doc, signal)) resealed += 1;
					continue;
				}
				const body = await openJson(previous, id, readSealed(doc.sealed)!);
				bodies.push({ _id: id, _rev: doc._rev, sealed: await sealJson(current, id, body) });
			} catch (error) {
				// One that does not open was not written with the passphrase: left as it is (refused where it arrives).
				if (!(error instanceof Unauthentic)) throw error;
			}
		}
		// A document written meanwhile is not overwritten: its new revision comes later in the feed.
		if (bodies.length) resealed += (await client.writeRaw(bodies, signal)).filter((result) => result.ok).length;
		since = page.lastSeq;
		await onPage?.(since, resealed);
		if (page.count < PAGE) return since;
	}
}

/** A blob document: its bytes fetched, opened and sealed again with its body, in one write. False when it changed meanwhile. */
async function resealBlob(client: SealedClient, previous: DocumentKey, current: DocumentKey, doc: Record<string, unknown>, signal?: AbortSignal): Promise<boolean> {
	const id = String(doc._id);
	const body = (await openJson(previous, id, readSealed(doc.sealed)!)) as { type?: unknown };
	const stub = (doc._attachments as Record<string, { length?: unknown }> | undefined)?.data;
	if (typeof body?.type !== 'string' || typeof stub?.length !== 'number' || typeof doc._rev !== 'string') return false;
	const sealed = await client.getRawAttachment(id, 'data', doc._rev, stub.length, signal);
	if (!sealed) return false;
	const bytes = await openBytes(previous, id, 'data', sealed);
	return (await client.putRaw(id, { ...(await sealBlob(current, id, body.type, bytes)), _rev: doc._rev }, signal)) !== null;
}
