// Loads the sessions an operation on `ids` may reach: the rows themselves, their compression
// lineages both ways, delegate descendants, and the direct children that will be detached.
// A few index reads per generation, never a scan of every session. It may read a little more
// than goes (a parent of another origin); SessionFamily.closureOf decides what does.
import { getSessions, listChildSessions } from '../db/deletion-verbs';
import type { PalimpsestDb } from '../db/database';
import type { SessionRow } from '../db/schema';
import { sameOrigin } from '../db/session-links';
import { goesWithParent, SessionFamily, takesParent } from './plan-cascade';

export async function readFamily(db: PalimpsestDb, ids: readonly string[]): Promise<SessionFamily<SessionRow>> {
	const rows = new Map<string, SessionRow>();
	const expanded = new Set<string>();
	let frontier = [...new Set(ids)];
	while (frontier.length) {
		const asked = frontier.filter((id) => !expanded.has(id));
		for (const id of asked) expanded.add(id);
		// A session's row and its children are read together (children of a missing id: none).
		const [found, children] = await Promise.all([getSessions(db, asked.filter((id) => !rows.has(id))), listChildSessions(db, asked)]);
		for (const row of found) rows.set(row.id, row);
		const expanding = asked.filter((id) => rows.has(id));
		const next = new Set<string>();
		for (const child of children) {
			if (!rows.has(child.id)) rows.set(child.id, child);
			const parent = rows.get(child.parent_session_id!);
			if (goesWithParent(child.parent_kind) && parent && sameOrigin(child, parent) && !expanded.has(child.id)) next.add(child.id);
		}
		for (const id of expanding) {
			const row = rows.get(id)!;
			if (takesParent(row) && !expanded.has(row.parent_session_id!)) next.add(row.parent_session_id!);
		}
		frontier = [...next];
	}
	return new SessionFamily(rows.values());
}
