// Receives the server's changes since this device's checkpoint, page by page; each page's
// documents, merged with the branches that conflict with them, and the checkpoint after them are
// applied together (see SyncStore.applyPulled). A page too large to read is asked for again
// smaller, down to one change, which is then skipped. Sessions that came back here whose rows
// are gone have their documents read again afterwards.
import type { ChangesPage, CouchClient, Skipped } from './couch-client';
import { mergeDocs, type AnyDoc } from './merge-docs';
import { MESSAGE_PREFIX, messageDocId, promptDocId, SESSION_PREFIX, sessionDocId } from './document-ids';
import { assistantDocId } from './assistant-document';
import { pullBlobs } from './pull-blobs';
import type { ReadDocument } from './read-document';
import { SyncError } from './sync-error';
import type { ApplyOptions, PulledDoc, SyncStore } from './sync-store';

export const DEFAULT_PULL_LIMIT = 200;

export interface PullOptions {
	store: SyncStore;
	client: CouchClient;
	/** Changes per page. */
	limit?: number;
	/**
	 * The revisions this pass has just sent (by id): the feed brings them back, and this device
	 * holds them, known without looking. Once they are many, the feed is read ids first from the start.
	 */
	sent?: ReadonlyMap<string, string>;
	/** Wait this long for a first change when there is none (long-poll). */
	longPollMs?: number;
	signal?: AbortSignal;
	onProgress?: (done: number, total: number | null) => void;
	/** How far the pull may move sessions to "Recently deleted" without asking, and which the user kept. */
	apply?: ApplyOptions;
	/**
	 * Waits for a burst of changes to finish arriving. A long-poll answers at the first change of a
	 * burst: when that is a session's deletion, the rest of a many-session deletion may still be on
	 * its way, and it is counted whole (to ask about it) only once it has come.
	 */
	settle?: (signal?: AbortSignal) => Promise<void>;
}

export interface PullOutcome {
	pulled: number;
	skipped: Skipped[];
}

/** Each read document merged with its conflicting branches (fetched), the losing revisions noted to delete. */
export async function withBranches(client: CouchClient, read: readonly ReadDocument[], skipped: Skipped[], signal?: AbortSignal): Promise<PulledDoc[]> {
	const docs: PulledDoc[] = [];
	for (const doc of read) {
		if (doc.kind === 'refused') {
			skipped.push({ id: doc.id, reason: doc.reason });
			continue;
		}
		if ((doc.kind !== 'session' && doc.kind !== 'message' && doc.kind !== 'prompt' && doc.kind !== 'assistant') || !doc.conflicts?.length) {
			docs.push(doc);
			continue;
		}
		let merged: AnyDoc = doc.doc;
		const id = doc.kind === 'session' ? sessionDocId(doc.doc.session_id) : doc.kind === 'prompt' ? promptDocId(doc.doc.prompt_id) : doc.kind === 'assistant' ? assistantDocId(doc.doc.assistant_id) : messageDocId(doc.doc.session_id, doc.doc.position);
		for (const branch of await client.fetchRevisions(id, doc.conflicts, signal)) {
			if (branch.kind === doc.kind) merged = mergeDocs(merged, branch.doc as AnyDoc);
			else if (branch.kind === 'refused') skipped.push({ id: branch.id, reason: branch.reason });
		}
		docs.push({ ...doc, doc: merged, losers: doc.conflicts } as PulledDoc);
	}
	return docs;
}

/**
 * Of the revisions `revs` of documents `ids`, which this device holds already: those this pass
 * has just sent, and (asked of the store) those it wrote or applied before.
 */
async function knownOf(store: SyncStore, sent: ReadonlyMap<string, string> | undefined, ids: readonly string[], revs: readonly string[]): Promise<boolean[]> {
	const known = ids.map((id, at) => sent?.get(id) === revs[at]);
	const ask = ids.flatMap((_, at) => (known[at] ? [] : [at]));
	if (!ask.length || !store.knownRevisions) return known;
	const held = await store.knownRevisions(ask.map((at) => ids[at]), ask.map((at) => revs[at]));
	ask.forEach((at, i) => (known[at] = held[i]));
	return known;
}

/**
 * `docs` without the revisions this device holds already: those it sent itself (the feed brings
 * every write back to its writer), and those applied before. A document with conflicting
 * branches, or of the first format, is always taken.
 */
async function unknownOf(store: SyncStore, sent: ReadonlyMap<string, string> | undefined, docs: readonly ReadDocument[]): Promise<ReadDocument[]> {
	const plain = (doc: ReadDocument): doc is Extract<ReadDocument, { kind: 'session' | 'message' }> => (doc.kind === 'session' || (doc.kind === 'message' && !doc.legacy)) && !doc.conflicts?.length;
	const candidates = docs.filter(plain);
	if (!store.knownRevisions || !candidates.length) return [...docs];
	const known = await knownOf(
		store,
		sent,
		candidates.map((doc) => (doc.kind === 'session' ? sessionDocId(doc.doc.session_id) : messageDocId(doc.doc.session_id, doc.doc.position))),
		candidates.map((doc) => doc.rev)
	);
	const skip = new Set(candidates.filter((_, at) => known[at]));
	return docs.filter((doc) => !skip.has(doc as (typeof candidates)[number]));
}

const deletesSession = (doc: ReadDocument) => doc.kind === 'session' && doc.doc.purged_at === null && doc.doc.fields.deleted_at !== null;

/** One page of the feed, read: its documents merged with their branches and with their Blobs fetched; `limit` as asked in the end. */
interface ReadPage {
	page: ChangesPage;
	docs: PulledDoc[];
	limit: number;
	/** Of its changes, how many this device held already. */
	known: number;
}

/** Changes per page when the feed's ids are read first: a few dozen bytes each. */
const LIGHT_LIMIT = 1_000;

/**
 * Reads the page after `since` as ids and revisions first, then only the documents this device
 * does not hold (after sending, the feed is mostly its own writes coming back); null when most of
 * it is new here, or some change is not plainly readable (then the page is read whole).
 */
async function readLightPage({ store, client, signal, sent }: PullOptions, since: string): Promise<ReadPage | null> {
	const page = await client.changes({ since, limit: LIGHT_LIMIT, includeDocs: false, leaves: true, signal });
	const leaves = page.leaves ?? [];
	if (!store.knownRevisions || page.ids.some((id, at) => id === null || !leaves[at])) return null;
	// Sessions and messages at one revision, not deleted, are what this device may hold already.
	const plain = page.ids.flatMap((id, at) => ((id!.startsWith(SESSION_PREFIX) || id!.startsWith(MESSAGE_PREFIX)) && leaves[at]!.revs.length === 1 && !leaves[at]!.deleted ? [at] : []));
	const known = plain.length ? await knownOf(store, sent, plain.map((at) => page.ids[at]!), plain.map((at) => leaves[at]!.revs[0])) : [];
	const held = new Set(plain.filter((_, i) => known[i]));
	const unknown = page.ids.flatMap((id, at) => (held.has(at) ? [] : [id!]));
	if (unknown.length * 4 > page.count) return null;
	const read = unknown.length ? await client.readCurrent(unknown, signal) : { docs: [], skipped: [] };
	const docs = await pullBlobs(client, store, await withBranches(client, await unknownOf(store, sent, read.docs), read.skipped, signal), signal);
	return { page: { ...page, docs: read.docs, skipped: read.skipped }, docs, limit: LIGHT_LIMIT, known: page.count - unknown.length };
}

/**
 * Reads the page after `since`: a page too large to read is asked for again smaller, down to one
 * change, which is then skipped. A long-poll that woke with fewer changes than asked is read again
 * at once, and one that woke on a deletion after waiting for the rest of its burst.
 */
async function readPage({ store, client, signal, settle, sent }: PullOptions, since: string, limit: number, wait: number | undefined): Promise<ReadPage> {
	for (let pageLimit = limit; ; pageLimit = Math.ceil(pageLimit / 2)) {
		try {
			let page = await client.changes({ since, limit: pageLimit, longPollMs: wait, signal });
			// A long-poll answers at the first change of a burst, though what another device wrote in
			// one request is on the server whole by then: a page shorter than asked is read again, so
			// that what was changed together is applied together (a conversation is not shown or sent
			// half-changed). A full page is followed by the next anyway.
			if (wait !== undefined && page.count > 0) {
				const settling = settle !== undefined && page.docs.some(deletesSession);
				if (settling) await settle(signal);
				if (settling || page.count < pageLimit) page = await client.changes({ since, limit: pageLimit, signal });
			}
			const unknown = await unknownOf(store, sent, page.docs);
			return { page, docs: await pullBlobs(client, store, await withBranches(client, unknown, page.skipped, signal), signal), limit: pageLimit, known: page.docs.length - unknown.length };
		} catch (error) {
			// Too large to read (not refused by the server): fewer changes a page, or at one, skip it.
			if (!(error instanceof SyncError && error.kind === 'too-large' && error.status === undefined)) throw error;
			if (pageLimit > 1) continue;
			const page = await client.changes({ since, limit: 1, includeDocs: false, signal });
			const id = page.ids[0] ?? null;
			page.skipped.push({ id, reason: `${id === null ? 'A document' : `Document ${JSON.stringify(id)}`} is refused: ${error.reason}` });
			return { page, docs: [], limit: 1, known: 0 };
		}
	}
}

export async function pullChanges(options: PullOptions): Promise<PullOutcome> {
	const { store, client, limit = DEFAULT_PULL_LIMIT, longPollMs, signal, onProgress, apply } = options;
	const outcome: PullOutcome = { pulled: 0, skipped: [] };
	let since = (await store.checkpoint()) ?? '0';
	// A pull asks before it moves more sessions to "Recently deleted" than allowed, over all its pages.
	let allowance = apply;
	// While a page is applied, the next is already on its way (the server's work and the device's
	// overlap). Once a page turns out mostly known here, the next are read ids first; after sending
	// a page's worth or more, the first is too (the feed begins with this pass's own writes).
	const read = async (from: string, light: boolean, wait?: number): Promise<ReadPage> => (light && (await readLightPage(options, from))) || readPage(options, from, limit, wait);
	let next: Promise<ReadPage> | null = read(since, (options.sent?.size ?? 0) >= limit, longPollMs);
	try {
		for (;;) {
			const { page, docs, limit: asked, known }: ReadPage = await next!;
			next = null;
			if (page.count === 0 && page.lastSeq === since) break;
			const more = page.count >= asked;
			if (more) next = read(page.lastSeq, known * 4 >= page.count * 3);
			const applied = await store.applyPulled(docs, page.lastSeq, allowance);
			allowance = { ...allowance, allowDeletions: Math.max(0, (allowance?.allowDeletions ?? Infinity) - applied.deleted) };
			outcome.pulled += docs.length;
			outcome.skipped.push(...page.skipped);
			onProgress?.(outcome.pulled + outcome.skipped.length, page.pending === null ? null : outcome.pulled + outcome.skipped.length + page.pending);
			if (!more) break;
			since = page.lastSeq;
		}
	} finally {
		// A page read ahead and never applied is dropped (read again from the checkpoint next time).
		await next?.catch(() => {});
	}
	outcome.pulled += await readAgain(store, client, outcome.skipped, allowance, signal);
	return outcome;
}

/** Reads again the documents of sessions that came back here without their rows (restored elsewhere, or changed after a sweep here). */
async function readAgain(store: SyncStore, client: CouchClient, skipped: Skipped[], apply: ApplyOptions | undefined, signal?: AbortSignal): Promise<number> {
	let read = 0;
	for (const sessionId of await store.sessionsToRead()) {
		signal?.throwIfAborted();
		const found: ReadDocument[] = [];
		for (const prefix of ['msg', 'blob']) found.push(...(await client.readRange(`${prefix}:${sessionId}:`, `${prefix}:${sessionId}:\ufff0`, signal)).docs);
		const docs = await pullBlobs(client, store, await withBranches(client, found, skipped, signal), signal);
		await store.applyPulled(docs, null, apply);
		await store.sessionRead(sessionId);
		read += docs.length;
	}
	return read;
}
