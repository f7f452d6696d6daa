// How an import is written: in slices of whole sessions, each one transaction, parents before
// the sessions that link to them. A large file then never holds the profile's tables for the
// whole import, and if writing stops part-way (a full disk, a closed tab), what landed is
// complete sessions whose links all resolve, and importing the file again adds the rest. Pure.
import { sliceByRows } from './slice-by-rows';

/**
 * Messages per slice: some 10 MB of rows. Each slice holds the profile's sessions and messages
 * while it writes, so another tab's write waits for one slice at most, not for the whole import.
 * Each slice costs a little of its own (a commit, the page's lists reading again): with slices
 * of 5,000, an import of 100,000 messages took about a fifth longer than in one transaction;
 * with 20,000, about as long.
 */
export const IMPORT_SLICE_ROWS = 20_000;

interface Linked {
	session: { id: string; parent_session_id: string | null };
	messages: readonly unknown[];
}

/**
 * The entries with each session after the session it links to (when that is in the file), in
 * file order otherwise. Links must not loop (import-links.ts cuts loops first).
 */
export function orderParentsFirst<E extends Linked>(entries: readonly E[]): E[] {
	const byId = new Map(entries.map((entry) => [entry.session.id, entry]));
	const placed = new Set<string>();
	const ordered: E[] = [];
	for (const entry of entries) {
		// The chain of ancestors not placed yet, nearest first; placed from the farthest down.
		const chain: E[] = [];
		for (let at: E | undefined = entry; at && !placed.has(at.session.id); ) {
			chain.push(at);
			placed.add(at.session.id);
			const parent: string | null = at.session.parent_session_id;
			at = parent === null ? undefined : byId.get(parent);
		}
		for (let i = chain.length - 1; i >= 0; i--) ordered.push(chain[i]);
	}
	return ordered;
}

/**
 * Consecutive runs of entries holding at most `maxRows` messages each; a session larger than
 * that gets a slice of its own. A session is never split.
 */
export function sliceEntries<E extends Linked>(entries: readonly E[], maxRows = IMPORT_SLICE_ROWS): E[][] {
	return sliceByRows(entries, (entry) => entry.messages.length, maxRows);
}
