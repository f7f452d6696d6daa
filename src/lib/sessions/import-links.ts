// Links between the sessions of an imported file. A file may only link its own sessions: a
// link naming any other session (one of yours, say) would make deleting the imported session
// take yours with it, so it is cut, and so is a link that leads round in a loop. Pure.
import type { MessageRow } from '../db/schema';
import type { ImportedSession } from './import-rows';

export interface ImportedEntry {
	session: ImportedSession;
	messages: MessageRow[];
}

export interface LinkCuts {
	/** Parent links and compaction markers that named a session not in the file. */
	outside: number;
	/** Parent links that led back to the session itself. */
	loops: number;
}

export function cutForeignLinks(entries: readonly ImportedEntry[]): { entries: ImportedEntry[]; cuts: LinkCuts } {
	const inFile = new Set(entries.map((entry) => entry.session.id));
	const cuts: LinkCuts = { outside: 0, loops: 0 };
	const kept = entries.map(({ session, messages }) => {
		let parent = session.parent_session_id;
		if (parent !== null && !inFile.has(parent)) {
			cuts.outside += 1;
			parent = null;
		}
		const rows = messages.map((row) => {
			const old = row.compaction?.old_session_id;
			if (old === undefined || inFile.has(old)) return row;
			cuts.outside += 1;
			const { old_session_id: _cut, ...marker } = row.compaction!;
			return { ...row, compaction: marker };
		});
		// A kind without a parent means nothing; a parent without a kind is a branch, as when the app makes one.
		const kind = parent === null ? null : (session.parent_kind ?? 'branch');
		return { session: { ...session, parent_session_id: parent, parent_kind: kind }, messages: rows };
	});
	const looping = loopClosers(kept.map((entry) => entry.session));
	cuts.loops = looping.size;
	return {
		entries: kept.map((entry) =>
			looping.has(entry.session.id) ? { ...entry, session: { ...entry.session, parent_session_id: null, parent_kind: null } } : entry
		),
		cuts
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
