// Reads the session sweeps start from: candidates by index, so a sweep never loads every row.
import type { PalimpsestDb } from './database';
import type { SessionRow } from './schema';

/** Sessions that have ended (rows with no end are not in the ended_at index). */
export function listEndedSessions(db: PalimpsestDb): Promise<SessionRow[]> {
	return db.sessions.where('ended_at').aboveOrEqual(0).toArray();
}

/** Rows read at a time by a sweep's look: each page is its own short task on the page. */
const PAGE = 500;

/**
 * Sessions whose last activity is older than `before`. Read a page at a time, so that a profile
 * of 10,000 old sessions never holds the page for one long read; a row deleted meanwhile is
 * left out (the sweep checks its choice again when it writes).
 */
export async function listSessionsIdleSince(db: PalimpsestDb, before: number): Promise<SessionRow[]> {
	const ids = await db.sessions.where('last_activity_at').below(before).primaryKeys();
	const rows: SessionRow[] = [];
	for (let at = 0; at < ids.length; at += PAGE) {
		for (const row of await db.sessions.bulkGet(ids.slice(at, at + PAGE))) if (row) rows.push(row);
	}
	return rows;
}

/** Sessions whose recorded profile is not the profile of this database. */
export function listMisfiledSessions(db: PalimpsestDb, profile: string): Promise<SessionRow[]> {
	return db.sessions.filter((row) => row.profile !== profile).toArray();
}
