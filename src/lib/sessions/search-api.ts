// What the search worker serves: title matches at once, then a scan of every message, off the
// page. A newer call stops an older scan between two chunks of rows, so typing never waits for
// a stale query. Titles are cached per profile until the page says sessions changed.
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { measureSessions, type SessionSize } from '../db/measure-sessions';
import { matchTitles, normalizeQuery, readTitles, scanMessages, type TitleEntry } from '../db/search-sessions';

export interface SearchCall {
	profile: string;
	query: string;
	/** Changes whenever the page saw a write to sessions: the cached titles are then read again. */
	titlesVersion: number;
}

/** Builds the API over one database per profile, opened on first use and kept open. */
export function createSearchApi(open: (profile: string) => PalimpsestDb = (profile) => openProfileDb(profile)) {
	let db: { profile: string; handle: PalimpsestDb } | null = null;
	let titles: { profile: string; version: number; entries: TitleEntry[] } | null = null;
	// Every call takes a new number; a scan whose number is no longer the latest stops.
	let latest = 0;

	const dbFor = (profile: string): PalimpsestDb => {
		if (db?.profile !== profile) {
			db?.handle.close();
			db = { profile, handle: open(profile) };
		}
		return db.handle;
	};

	const titlesFor = async (call: SearchCall): Promise<TitleEntry[]> => {
		if (titles?.profile !== call.profile || titles.version !== call.titlesVersion) {
			titles = { profile: call.profile, version: call.titlesVersion, entries: await readTitles(dbFor(call.profile)) };
		}
		return titles.entries;
	};

	return {
		/** Opens the database and caches the titles, stopping nothing: the first keystroke is then quick. */
		async prepare(call: SearchCall): Promise<void> {
			await titlesFor(call);
		},

		/** Ids of sessions whose title matches; stops any scan still running. */
		async searchTitles(call: SearchCall): Promise<string[]> {
			latest++;
			return matchTitles(await titlesFor(call), normalizeQuery(call.query));
		},

		/**
		 * Ids of sessions with a message that matches (sessions in `skip` are not read), or null
		 * when a newer call came first.
		 */
		async searchMessages(call: SearchCall, skip: string[] = []): Promise<string[] | null> {
			const mine = ++latest;
			const found = await scanMessages(dbFor(call.profile), normalizeQuery(call.query), {
				skip: new Set(skip),
				stale: () => latest !== mine
			});
			return found ? [...found] : null;
		},

		/** Every session of the profile with what it stores, largest first. */
		measureSessions(profile: string): Promise<SessionSize[]> {
			return measureSessions(dbFor(profile));
		},

		/** Closes the database, e.g. before the profile is deleted. */
		close(): void {
			latest++;
			db?.handle.close();
			db = null;
			titles = null;
		}
	};
}

export type SearchApi = ReturnType<typeof createSearchApi>;
