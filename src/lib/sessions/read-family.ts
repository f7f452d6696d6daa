// Loads the sessions an operation on `ids` may reach: the rows themselves, their compression
// lineages both ways, delegate descendants, and the direct children that will be detached.
// A few index reads per generation, never a scan of every session.
import { getSessions, listChildSessions } from '../db/deletion-verbs';
import type { PalimpsestDb } from '../db/database';
import type { SessionRow } from '../db/schema';
import { goesWithParent, SessionFamily, takesParent } from './plan-cascade';

export async function readFamily(db: PalimpsestDb, ids: readonly string[]): Promise<SessionFamily<SessionRow>> {
	const rows = new Map<string, SessionRow>();
	const expanded = new Set<string>();
	let frontier = [...new Set(ids)];
	while (frontier.length) {
		for (const row of await getSessions(db, frontier.filter((id) => !rows.has(id)))) rows.set(row.id, row);
		const expanding = frontier.filter((id) => rows.has(id) && !expanded.has(id));
		for (const id of expanding) expanded.add(id);
		const next = new Set<string>();
		for (const child of await listChildSessions(db, expanding)) {
			if (!rows.has(child.id)) rows.set(child.id, child);
			if (goesWithParent(child.parent_kind) && !expanded.has(child.id)) next.add(child.id);
		}
		for (const id of expanding) {
			const row = rows.get(id)!;
			if (takesParent(row) && !expanded.has(row.parent_session_id!)) next.add(row.parent_session_id!);
		}
		frontier = [...next];
	}
	return new SessionFamily(rows.values());
}
