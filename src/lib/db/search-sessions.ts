// Finds sessions whose title or message text contains a query (case-insensitive).
import type { PalimpsestDb } from './database';

export async function searchSessionIds(db: PalimpsestDb, query: string): Promise<Set<string>> {
	const needle = query.trim().toLocaleLowerCase();
	const found = new Set<string>();
	if (!needle) return found;
	await db.sessions.each((row) => {
		if (row.title.toLocaleLowerCase().includes(needle)) found.add(row.id);
	});
	await db.messages.each((row) => {
		if (!found.has(row.session_id) && row.content.toLocaleLowerCase().includes(needle)) {
			found.add(row.session_id);
		}
	});
	return found;
}
