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

/** How many listed sessions fall in each part of the list, top to bottom (see countSessionGroups). */
export interface SessionGroupCounts {
	pinned: number;
	today: number;
	yesterday: number;
	week: number;
	older: number;
}

/**
 * The sizes of the list's groups: pinned sessions, then unpinned ones active since `bounds`
 * (start of today, of yesterday, of the seven days before today), then older ones. Counts of
 * index ranges: no row is read, so 10,000 sessions cost a few milliseconds.
 */
export async function countSessionGroups(db: PalimpsestDb, bounds: { today: number; yesterday: number; week: number }): Promise<SessionGroupCounts> {
	const index = db.sessions.where('[archived+pinned+last_activity_at]');
	const since = (from: number, to: number) => index.between([0, 0, from], [0, 0, to], true, false).count();
	const [pinned, today, yesterday, week, older] = await Promise.all([
		index.between([0, 1, -Infinity], [0, Infinity, Infinity], true, true).count(),
		since(bounds.today, Infinity),
		since(bounds.yesterday, bounds.today),
		since(bounds.week, bounds.yesterday),
		since(-Infinity, bounds.week)
	]);
	return { pinned, today, yesterday, week, older };
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
