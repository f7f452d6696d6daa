// Sends this device's pending documents with `_bulk_docs`, in requests bounded in bytes. A
// session that meets another device's revision is merged with it and sent again; a message
// already there is done (message documents never change); what the server refuses is counted.
import type { CouchClient, BulkResult, Skipped } from './couch-client';
import { mergeSessionDocs } from './merge-session';
import { blobsToSend, pushBlobs, type BlobUpload } from './push-blobs';
import { pendingBody, pendingBytes } from './pending-body';
import { SyncError } from './sync-error';
import type { PendingDoc, PushResult, SyncStore } from './sync-store';

/** CouchDB's default max_http_request_size is 4 GB, but proxies and hosted servers often stop near 1 MB. */
export const DEFAULT_BATCH_BYTES = 1024 * 1024;
/** `{"docs":[` and `]}` around the documents. */
const ENVELOPE_BYTES = 11;
/** Rounds of fetch, merge and resend for one document before it waits for the next pass. */
const CONFLICT_ROUNDS = 3;

export interface PushOptions {
	store: SyncStore;
	client: CouchClient;
	batchBytes?: number;
	signal?: AbortSignal;
	onProgress?: (done: number, total: number) => void;
}

export interface PushOutcome {
	pushed: number;
	skipped: Skipped[];
}

export async function pushPending({ store, client, batchBytes = DEFAULT_BATCH_BYTES, signal, onProgress }: PushOptions): Promise<PushOutcome> {
	let total = await store.pendingCount();
	const outcome: PushOutcome = { pushed: 0, skipped: [] };
	if (!total) return outcome;
	onProgress?.(0, total);
	// Each edit is sent at most once a pass, so a document the server keeps refusing cannot spin.
	const seen = new Set<string>();
	for (;;) {
		const entries = (await store.pending(batchBytes)).filter((entry) => !seen.has(`${entry.id}@${entry.edit}`));
		if (!entries.length) return outcome;
		for (const entry of entries) seen.add(`${entry.id}@${entry.edit}`);
		for (const batch of packBatches(entries, batchBytes)) {
			signal?.throwIfAborted();
			const results = await pushBatch(client, store, batch, signal);
			await store.markPushed(results);
			for (const result of results) if (result.kind === 'refused') outcome.skipped.push({ id: result.id, reason: result.reason });
			outcome.pushed += batch.length;
			total = Math.max(total, outcome.pushed);
			onProgress?.(outcome.pushed, total);
		}
	}
}

/** Entries in order, in requests of at most `limit` bytes (a document larger than that goes alone). */
export function packBatches(entries: readonly PendingDoc[], limit: number): PendingDoc[][] {
	const batches: PendingDoc[][] = [];
	let batch: PendingDoc[] = [];
	let bytes = ENVELOPE_BYTES - 1;
	for (const entry of entries) {
		const size = pendingBytes(entry);
		if (batch.length && bytes + size > limit) {
			batches.push(batch);
			batch = [];
			bytes = ENVELOPE_BYTES - 1;
		}
		batch.push(entry);
		bytes += size;
	}
	if (batch.length) batches.push(batch);
	return batches;
}

async function pushBatch(client: CouchClient, store: SyncStore, batch: readonly PendingDoc[], signal?: AbortSignal): Promise<PushResult[]> {
	const results: PushResult[] = [];
	const merged = new Set<string>();
	// Messages whose Blobs follow their document; those already there are asked what they hold.
	const uploads: BlobUpload[] = [];
	const recheck: Extract<PendingDoc, { kind: 'message' }>[] = [];
	let round = [...batch];
	for (let attempt = 0; round.length && attempt < CONFLICT_ROUNDS; attempt++) {
		const answers = await writeSplitting(client, round, signal);
		const conflicts: PendingDoc[] = [];
		round.forEach((entry, at) => {
			const answer = answers[at];
			const blobs = entry.kind === 'message' && blobsToSend(entry.doc).length > 0;
			if (answer.ok) {
				results.push(pushed(entry, answer.rev, merged.has(entry.id)));
				if (blobs && entry.kind === 'message') uploads.push({ id: entry.id, doc: entry.doc, rev: answer.rev, attached: [] });
			} else if (answer.error === 'conflict') {
				// A message already there is the same message: its id carries its place.
				if (entry.kind === 'message') {
					results.push(pushed(entry, null, false));
					if (blobs) recheck.push(entry);
				} else conflicts.push(entry);
			} else results.push(refused(entry, `The sync server refused ${entry.id} (${answer.error}${answer.reason ? `: ${answer.reason}` : ''}).`));
		});
		round = [];
		if (!conflicts.length) break;
		const server = await client.fetchDocs(
			conflicts.map((entry) => entry.id),
			signal
		);
		for (const entry of conflicts) {
			const copy = server.get(entry.id) ?? { state: 'missing' };
			if (entry.kind === 'message-removed' || entry.kind === 'session-purged') {
				if (copy.state === 'present') round.push({ ...entry, rev: copy.rev });
				else results.push(pushed(entry, copy.state === 'deleted' ? copy.rev : null, false));
			} else if (entry.kind === 'session') {
				if (copy.state !== 'present') round.push({ ...entry, rev: null });
				else if (copy.read.kind === 'session') {
					merged.add(entry.id);
					round.push({ ...entry, rev: copy.rev, doc: mergeSessionDocs(entry.doc, copy.read.doc) });
				} else if (copy.read.kind === 'refused') results.push(refused(entry, copy.read.reason));
				else results.push(refused(entry, `The sync server holds something else at ${entry.id}.`));
			}
		}
	}
	if (recheck.length) {
		const server = await client.fetchDocs(
			recheck.map((entry) => entry.id),
			signal
		);
		for (const entry of recheck) {
			const copy = server.get(entry.id);
			if (copy?.state === 'present' && copy.read.kind === 'message') uploads.push({ id: entry.id, doc: entry.doc, rev: copy.rev, attached: copy.read.attached ?? [] });
		}
	}
	// The revision a message ends at, so deleting it later names the right one.
	const revs = await pushBlobs(client, store, uploads, signal);
	return results.map((result) => (result.kind === 'pushed' && revs.has(result.id) ? { ...result, rev: revs.get(result.id)! } : result));
}

function pushed(entry: PendingDoc, rev: string | null, wasMerged: boolean): PushResult {
	return { kind: 'pushed', id: entry.id, edit: entry.edit, rev, ...(wasMerged && entry.kind === 'session' ? { merged: entry.doc } : {}) };
}

function refused(entry: PendingDoc, reason: string): PushResult {
	return { kind: 'refused', id: entry.id, edit: entry.edit, reason };
}

/** Writes `entries`; a request the server finds too large (413) is split, and a lone document refused. */
async function writeSplitting(client: CouchClient, entries: readonly PendingDoc[], signal?: AbortSignal): Promise<BulkResult[]> {
	try {
		return await client.bulkDocs(entries.map(pendingBody), signal);
	} catch (error) {
		if (!(error instanceof SyncError && error.status === 413)) throw error;
		if (entries.length === 1) return [{ id: entries[0].id, ok: false, error: 'too_large', reason: 'larger than the server takes in one request (413)' }];
		const half = Math.ceil(entries.length / 2);
		return [...(await writeSplitting(client, entries.slice(0, half), signal)), ...(await writeSplitting(client, entries.slice(half), signal))];
	}
}
