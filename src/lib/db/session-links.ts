// The links a session row and its messages hold to other sessions (its parent link, and the
// earlier session a rotation's compaction marker names), and the origin a session has: made in
// this profile, or brought in by one import (SessionRow.import_id). Links are followed, written
// and continued only between sessions of one origin. Pure.
import type { MessageRow, SessionRow } from './schema';

/** Whether two sessions were made in this profile, or came in with the same import. */
export function sameOrigin(a: Pick<SessionRow, 'import_id'>, b: Pick<SessionRow, 'import_id'>): boolean {
	return (a.import_id ?? null) === (b.import_id ?? null);
}

interface Linking {
	session: Pick<SessionRow, 'parent_session_id' | 'parent_kind'>;
	messages: readonly MessageRow[];
}

/** The sessions an entry links to: its parent and the sessions its compaction markers name. */
export function linkTargets(entry: Linking): string[] {
	const targets = new Set<string>();
	if (entry.session.parent_session_id !== null) targets.add(entry.session.parent_session_id);
	for (const row of entry.messages) if (row.compaction?.old_session_id !== undefined) targets.add(row.compaction.old_session_id);
	return [...targets];
}

/**
 * The entry without its links to sessions `keep` refuses, and how many it lost. A parent link
 * that goes takes its kind with it; a marker keeps all but the session it named. Rows that lose
 * nothing are returned as they were.
 */
export function cutLinks<E extends Linking>(entry: E, keep: (sessionId: string) => boolean): { entry: E; cut: number } {
	let cut = 0;
	const parent = entry.session.parent_session_id;
	const parentGoes = parent !== null && !keep(parent);
	if (parentGoes) cut += 1;
	let messages = entry.messages;
	if (entry.messages.some((row) => row.compaction?.old_session_id !== undefined && !keep(row.compaction.old_session_id))) {
		messages = entry.messages.map((row) => {
			const old = row.compaction?.old_session_id;
			if (old === undefined || keep(old)) return row;
			cut += 1;
			const { old_session_id: _cut, ...marker } = row.compaction!;
			return { ...row, compaction: marker };
		});
	}
	if (!cut) return { entry, cut };
	const session = parentGoes ? { ...entry.session, parent_session_id: null, parent_kind: null } : entry.session;
	return { entry: { ...entry, session, messages }, cut };
}
