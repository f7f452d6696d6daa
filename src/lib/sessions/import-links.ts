// Links between the sessions of an imported file, before anything is written: a parent link
// without a kind is a branch (as when the app makes one), and a link that leads round in a loop
// is cut. Which links an import may write at all (only to sessions it writes itself, so none to
// one of yours, which deleting the imported session would take with it) is decided as each
// slice commits (db/transfer-verbs.ts). Pure.
import type { BlobRow } from '../db/schema';
import type { ImportedMessage, ImportedSession } from './import-rows';

export interface ImportedEntry {
	session: ImportedSession;
	messages: ImportedMessage[];
	/** The bytes of the images its messages show, checked. */
	images?: BlobRow[];
}

/** The entries with their parent kinds made whole and loops cut; `loops` counts the parent links cut. */
export function cutLoops(entries: readonly ImportedEntry[]): { entries: ImportedEntry[]; loops: number } {
	const kept = entries.map(({ session, ...rest }) => {
		// A kind without a parent means nothing; a parent without a kind is a branch.
		const kind = session.parent_session_id === null ? null : (session.parent_kind ?? 'branch');
		return { ...rest, session: { ...session, parent_kind: kind } };
	});
	const looping = loopClosers(kept.map((entry) => entry.session));
	return {
		entries: kept.map((entry) =>
			looping.has(entry.session.id) ? { ...entry, session: { ...entry.session, parent_session_id: null, parent_kind: null } } : entry
		),
		loops: looping.size
	};
}

/** Ids of the sessions whose parent link closes a loop (one per loop), in linear time. */
function loopClosers(sessions: readonly ImportedSession[]): Set<string> {
	const parentOf = new Map(sessions.map((row) => [row.id, row.parent_session_id]));
	const settled = new Set<string>();
	const closers = new Set<string>();
	for (const start of sessions) {
		const path = new Set<string>();
		let at: string | null = start.id;
		while (at !== null && !settled.has(at)) {
			path.add(at);
			const next: string | null = parentOf.get(at) ?? null;
			if (next !== null && path.has(next)) {
				closers.add(at);
				break;
			}
			at = next;
		}
		for (const id of path) settled.add(id);
	}
	return closers;
}
