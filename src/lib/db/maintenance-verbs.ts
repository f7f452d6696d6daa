// Reads the session sweeps start from: candidates by index, so a sweep never loads every row.
import type { PalimpsestDb } from './database';
import type { SessionRow } from './schema';

/** Sessions that have ended (rows with no end are not in the ended_at index). */
export function listEndedSessions(db: PalimpsestDb): Promise<SessionRow[]> {
	return db.sessions.where('ended_at').aboveOrEqual(0).toArray();
}

/** Sessions whose last activity is older than `before`. */
export function listSessionsIdleSince(db: PalimpsestDb, before: number): Promise<SessionRow[]> {
	return db.sessions.where('last_activity_at').below(before).toArray();
}

/** Sessions whose recorded profile is not the profile of this database. */
export function listMisfiledSessions(db: PalimpsestDb, profile: string): Promise<SessionRow[]> {
	return db.sessions.filter((row) => row.profile !== profile).toArray();
}
