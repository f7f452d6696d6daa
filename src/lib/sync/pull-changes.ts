// Receives the server's changes since this device's checkpoint, page by page; each page's
// documents and the checkpoint after them are applied together (see SyncStore.applyPulled). A
// page too large to read is asked for again smaller, down to one change, which is then skipped.
import type { ChangesPage, CouchClient, Skipped } from './couch-client';
import { pullBlobs } from './pull-blobs';
import { SyncError } from './sync-error';
import type { SyncStore } from './sync-store';

export const DEFAULT_PULL_LIMIT = 200;

export interface PullOptions {
	store: SyncStore;
	client: CouchClient;
	/** Changes per page. */
	limit?: number;
	/** Wait this long for a first change when there is none (long-poll). */
	longPollMs?: number;
	signal?: AbortSignal;
	onProgress?: (done: number, total: number | null) => void;
}

export interface PullOutcome {
	pulled: number;
	skipped: Skipped[];
}

export async function pullChanges({ store, client, limit = DEFAULT_PULL_LIMIT, longPollMs, signal, onProgress }: PullOptions): Promise<PullOutcome> {
	const outcome: PullOutcome = { pulled: 0, skipped: [] };
	let since = (await store.checkpoint()) ?? '0';
	let pageLimit = limit;
	let wait = longPollMs;
	for (;;) {
		let page: ChangesPage;
		try {
			page = await client.changes({ since, limit: pageLimit, longPollMs: wait, signal });
			page = await pullBlobs(client, store, page, signal);
		} catch (error) {
			// Too large to read (not refused by the server): fewer changes a page, or at one, skip it.
			if (!(error instanceof SyncError && error.kind === 'too-large' && error.status === undefined)) throw error;
			if (pageLimit > 1) {
				pageLimit = Math.ceil(pageLimit / 2);
				continue;
			}
			page = await client.changes({ since, limit: 1, includeDocs: false, signal });
			const id = page.ids[0] ?? null;
			page.skipped.push({ id, reason: `${id === null ? 'A document' : `Document ${JSON.stringify(id)}`} is refused: ${error.reason}` });
		}
		wait = undefined;
		if (page.count === 0 && page.lastSeq === since) return outcome;
		await store.applyPulled(page.docs, page.lastSeq);
		outcome.pulled += page.docs.length;
		outcome.skipped.push(...page.skipped);
		onProgress?.(outcome.pulled + outcome.skipped.length, page.pending === null ? null : outcome.pulled + outcome.skipped.length + page.pending);
		if (page.count < pageLimit) return outcome;
		since = page.lastSeq;
		pageLimit = limit;
	}
}
