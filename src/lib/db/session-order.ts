// The sidebar's reads: the order of the listed sessions as ids (keys only, no row is read),
// the first rows of that order for the first screen, and the rows of the few sessions on screen.
import type { PalimpsestDb } from './database';
import type { SessionRow } from './schema';

/**
 * Ids of the sessions that are not archived, pinned first, then most recently active: one
 * read of the [archived+pinned+last_activity_at] index's keys, newest first.
 */
export function listSessionOrder(db: PalimpsestDb): Promise<string[]> {
	return listed(db).reverse().primaryKeys();
}

/** Not archived: pinned and last_activity_at are numbers, so ±Infinity bound every one. */
function listed(db: PalimpsestDb) {
	return db.sessions.where('[archived+pinned+last_activity_at]').between([0, -Infinity, -Infinity], [0, Infinity, Infinity], true, true);
}

/**
 * The first `limit` rows of that same order, read straight from the index: what the list
 * shows before the ids of every session have been read.
 */
export function listFirstSessions(db: PalimpsestDb, limit: number): Promise<SessionRow[]> {
	return listed(db).reverse().limit(limit).toArray();
}

/** The rows with these ids, in the order asked; a session that is gone is left out. */
export async function readSessionRows(db: PalimpsestDb, ids: readonly string[]): Promise<SessionRow[]> {
	if (!ids.length) return [];
	return (await db.sessions.bulkGet([...ids])).filter((row): row is SessionRow => row !== undefined);
}
