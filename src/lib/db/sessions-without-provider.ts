// The sessions whose provider is not set up here, for a provider just saved to take over: read
// only then (not with the page), so it lives apart from the verbs every page load needs.
import type { PalimpsestDb } from './database';
import type { SessionRow } from './schema';

/** Sessions whose provider is none of `configured`: a look at every row, for a rare change. */
export function listSessionsWithoutProvider(db: PalimpsestDb, configured: ReadonlySet<string>): Promise<SessionRow[]> {
	return db.sessions.filter((row) => !configured.has(row.provider)).toArray();
}
