// Sends this device's pending documents with `_bulk_docs`, in requests bounded in bytes. A
// document that meets another revision is merged with the server's copy, and with every branch
// that conflicts with it there, then sent again (the losing branches deleted); a Blob goes as
// the attachment of a document of its own; what the server refuses is counted.
import type { BulkResult, CouchClient, FetchedDoc, Skipped } from './couch-client';
import { mergeDocs, type AnyDoc } from './merge-docs';
import { pendingBody, pendingBytes } from './pending-body';
import { SyncError } from './sync-error';
import type { MergeableDoc, PendingDoc, PendingPage, PushResult, SyncStore } from './sync-store';

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
	/** The revision the server gave each document sent (by id): the feed brings them back to this device, which holds them. */
	revisions: Map<string, string>;
}

export async function pushPending({ store, client, batchBytes = DEFAULT_BATCH_BYTES, signal, onProgress }: PushOptions): Promise<PushOutcome> {
	let total = await store.pendingCount();
	const outcome: PushOutcome = { pushed: 0, skipped: [], revisions: new Map() };
	if (!total) return outcome;
	onProgress?.(0, total);
	// Each edit is read at most once a pass (the store's cursor moves past it), so a document the
	// server keeps refusing cannot spin. The device's work and the server's overlap: while one
	// batch is sent, the next is read and the one before is marked sent.
	let marking: Promise<void> = Promise.resolve();
	let next: Promise<PendingPage> = store.pending(batchBytes);
	try {
		for (;;) {
			const page = await next;
			if (!page.docs.length) break;
			next = store.pending(batchBytes, page.after);
			for (const batch of packBatches(page.docs, batchBytes)) {
				signal?.throwIfAborted();
				const results = await pushBatch(client, store, batch, signal);
				await marking;
				marking = store.markPushed(results);
				for (const result of results) {
					if (result.kind === 'refused') outcome.skipped.push({ id: result.id, reason: result.reason });
					else if (result.rev !== null) outcome.revisions.set(result.id, result.rev);
				}
				outcome.pushed += batch.length;
				total = Math.max(total, outcome.pushed);
				onProgress?.(outcome.pushed, total);
			}
		}
		await marking;
	} finally {
		// Nothing left running past the pass, whatever ended it (its own failure is the one thrown).
		await Promise.allSettled([marking, next]);
	}
	return outcome;
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

/** The server's copy merged with every branch that conflicts with it there; the losing branches' revisions. */
async function serverCopy(client: CouchClient, id: string, copy: FetchedDoc, signal?: AbortSignal): Promise<{ doc: AnyDoc; losers: string[] } | { refused: string } | null> {
	if (copy.state !== 'present') return null;
	const read = copy.read;
	// A copy that does not open (changed on the server) is written over with this device's.
	if (read.kind === 'refused') return read.forged ? null : { refused: read.reason };
	if (read.kind !== 'session' && read.kind !== 'message' && read.kind !== 'prompt' && read.kind !== 'assistant') return { refused: `The sync server holds something else at ${id}.` };
	let doc: AnyDoc = read.doc;
	const losers = read.conflicts ?? [];
	if (losers.length) for (const branch of await client.fetchRevisions(id, losers, signal)) if (branch.kind === read.kind) doc = mergeDocs(doc, branch.doc as AnyDoc);
	return { doc, losers };
}

async function pushBatch(client: CouchClient, store: SyncStore, batch: readonly PendingDoc[], signal?: AbortSignal): Promise<PushResult[]> {
	const results: PushResult[] = [];
	// Documents first, then the revisions to delete: one request never names a document twice.
	const deletes = batch.filter((entry): entry is Extract<PendingDoc, { kind: 'delete' }> => entry.kind === 'delete');
	results.push(...(await writeRounds(client, batch.filter((entry): entry is MergeableDoc => entry.kind === 'session' || entry.kind === 'message' || entry.kind === 'prompt' || entry.kind === 'assistant'), deletes, signal)));
	if (deletes.length) results.push(...(await writeRounds(client, [], deletes, signal, true)));
	results.push(...(await pushBlobs(client, store, batch, signal)));
	return results;
}

/**
 * Writes documents, merging each that meets another revision and sending it again; the losing
 * branches found meanwhile join `deletes` (sent after). With `deleting`, writes `deletes` only.
 */
async function writeRounds(client: CouchClient, docs: readonly MergeableDoc[], deletes: Extract<PendingDoc, { kind: 'delete' }>[], signal: AbortSignal | undefined, deleting = false): Promise<PushResult[]> {
	const results: PushResult[] = [];
	const merged = new Map<string, AnyDoc>();
	let round: Exclude<PendingDoc, { kind: 'blob' }>[] = deleting ? [...deletes] : [...docs];
	for (let attempt = 0; round.length && attempt < CONFLICT_ROUNDS; attempt++) {
		const answers = await writeSplitting(client, round, signal);
		const conflicts: Exclude<PendingDoc, { kind: 'blob' }>[] = [];
		round.forEach((entry, at) => {
			const answer = answers[at];
			if (answer.ok) results.push(pushed(entry, answer.rev, merged.get(entry.id)));
			else if (answer.error === 'conflict') conflicts.push(entry);
			// A revision to delete that is gone already: done.
			else if (entry.kind === 'delete' && answer.error === 'not_found') results.push(pushed(entry, null));
			else results.push(refused(entry, `The sync server refused ${entry.id} (${answer.error}${answer.reason ? `: ${answer.reason}` : ''}).`));
		});
		round = [];
		if (!conflicts.length) break;
		const server = await client.fetchDocs([...new Set(conflicts.map((entry) => entry.id))], signal);
		for (const entry of conflicts) {
			const copy = server.get(entry.id) ?? { state: 'missing' as const };
			if (entry.kind === 'delete') {
				// That revision is no longer a leaf: the branch is gone already.
				results.push(pushed(entry, null));
				continue;
			}
			const theirs = await serverCopy(client, entry.id, copy, signal);
			if (theirs && 'refused' in theirs) {
				results.push(refused(entry, theirs.refused));
				continue;
			}
			const rev = copy.state === 'missing' ? null : copy.rev;
			const doc = theirs ? mergeDocs(entry.doc as AnyDoc, theirs.doc) : entry.doc;
			if (theirs) merged.set(entry.id, doc);
			round.push({ ...entry, rev, doc } as MergeableDoc);
			for (const loser of theirs?.losers ?? []) deletes.push({ kind: 'delete', id: entry.id, edit: entry.edit, rev: loser });
		}
	}
	return results;
}

/** Blobs: each its own request, its bytes as they are. */
async function pushBlobs(client: CouchClient, store: SyncStore, batch: readonly PendingDoc[], signal?: AbortSignal): Promise<PushResult[]> {
	const results: PushResult[] = [];
	for (const entry of batch) {
		if (entry.kind !== 'blob') continue;
		signal?.throwIfAborted();
		const data = await store.readBlob(entry.session_id, entry.blob_id);
		if (!data) {
			results.push(pushed(entry, null));
			continue;
		}
		try {
			await client.putBlob(entry.id, data, signal);
			results.push(pushed(entry, null));
		} catch (error) {
			if (!(error instanceof SyncError && (error.status === 413 || error.status === 400))) throw error;
			results.push(refused(entry, `The sync server refused ${entry.id} (${error.status}).`));
		}
	}
	return results;
}

function pushed(entry: PendingDoc, rev: string | null, merged?: AnyDoc): PushResult {
	if (entry.kind === 'delete') return { kind: 'pushed', id: entry.id, edit: entry.edit, rev: null, removed: entry.rev };
	return { kind: 'pushed', id: entry.id, edit: entry.edit, rev, ...(merged ? { merged } : {}) };
}

function refused(entry: PendingDoc, reason: string): PushResult {
	return { kind: 'refused', id: entry.id, edit: entry.edit, reason };
}

/** Writes `entries`; a request the server finds too large (413) is split, and a lone document refused. */
async function writeSplitting(client: CouchClient, entries: readonly Exclude<PendingDoc, { kind: 'blob' }>[], signal?: AbortSignal): Promise<BulkResult[]> {
	try {
		return await client.bulkDocs(entries.map(pendingBody), signal);
	} catch (error) {
		if (!(error instanceof SyncError && error.status === 413)) throw error;
		if (entries.length === 1) return [{ id: entries[0].id, ok: false, error: 'too_large', reason: 'larger than the server takes in one request (413)' }];
		const half = Math.ceil(entries.length / 2);
		return [...(await writeSplitting(client, entries.slice(0, half), signal)), ...(await writeSplitting(client, entries.slice(half), signal))];
	}
}

