// What the search worker serves: the full-text index of the profile (built, caught up and
// followed off the page, see search/index-keeper.ts), queried per keystroke. Answers are sessions
// ranked by relevance and recency, the first few with the matching message's snippet.
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { measureSessions, type SessionSize } from '../db/measure-sessions';
import { IndexKeeper, type IndexProgress, type KeeperStatus } from '../search/index-keeper';
import { makeSnippet, type Snippet } from '../search/snippet';

/** Results that come with a snippet (the rest come as ids, for the list and "Select all"). */
const SNIPPETS = 40;

export interface SearchCall {
	profile: string;
	query: string;
}

export interface SearchHit {
	sessionId: string;
	title: string;
	archived: boolean;
	/** The matching message, or null when the title matched. */
	seq: number | null;
	/** The compaction that took the matching message out of the transcript (shown under its marker), if one did. */
	compactedBy: string | null;
	/** Index terms that matched, to highlight the same words in the opened message. */
	terms: string[];
	snippet: Snippet | null;
}

export interface SearchAnswer {
	/** Every matching session, best first. */
	ids: string[];
	/** The first of them in full. */
	hits: SearchHit[];
	/** Set while the index is still being built: results may be missing. */
	progress: IndexProgress | null;
	/** Time spent in the worker. */
	ms: number;
}

/** Builds the API over one database per profile, opened on first use and kept open. */
export function createSearchApi(open: (profile: string) => PalimpsestDb = (profile) => openProfileDb(profile)) {
	let current: { profile: string; db: PalimpsestDb; keeper: IndexKeeper | null } | null = null;

	const dbFor = (profile: string): PalimpsestDb => {
		if (current?.profile !== profile) {
			current?.keeper?.close();
			current?.db.close();
			current = { profile, db: open(profile), keeper: null };
		}
		return current.db;
	};
	const keeperFor = (profile: string): IndexKeeper => {
		const db = dbFor(profile);
		return (current!.keeper ??= new IndexKeeper(db));
	};

	return {
		/** Opens the database and starts loading (or building) the index in the background. */
		async prepare(profile: string): Promise<IndexProgress | null> {
			const keeper = keeperFor(profile);
			await keeper.loaded;
			return keeper.progress;
		},

		/** Matching sessions, best first, the first ones with a snippet. */
		async search(call: SearchCall): Promise<SearchAnswer> {
			const started = performance.now();
			const keeper = keeperFor(call.profile);
			keeper.touch();
			await keeper.loaded;
			const ranked = keeper.index.search(call.query);
			const top = ranked.slice(0, SNIPPETS);
			const rows = await dbFor(call.profile).messages.bulkGet(top.filter((hit) => hit.seq !== null).map((hit) => [hit.sessionId, hit.seq!] as [string, number]));
			const bySeq = new Map(rows.filter((row) => !!row).map((row) => [`${row.session_id}\n${row.seq}`, row]));
			const hits = top.map(({ sessionId, seq, terms }): SearchHit => {
				const meta = keeper.index.sessions.get(sessionId);
				const row = seq === null ? undefined : bySeq.get(`${sessionId}\n${seq}`);
				return {
					sessionId,
					seq,
					terms,
					title: meta?.title ?? '',
					archived: meta?.archived ?? false,
					snippet: row === undefined ? null : makeSnippet(row.content, new Set(terms)),
					compactedBy: row?.active === 0 ? row.compacted_by : null
				};
			});
			return { ids: ranked.map((hit) => hit.sessionId), hits, progress: keeper.progress, ms: performance.now() - started };
		},

		/** How far the index is, and what the last updates cost. */
		status(profile: string): KeeperStatus {
			return keeperFor(profile).status();
		},

		/** Resolves once everything committed so far is indexed, and writes the snapshot when asked. */
		async settle(profile: string, save = false): Promise<KeeperStatus> {
			const keeper = keeperFor(profile);
			await (save ? keeper.save() : keeper.settled());
			return keeper.status();
		},

		/** Every session of the profile (archived ones too) with what it stores, largest first. */
		measureSessions(profile: string): Promise<SessionSize[]> {
			return measureSessions(dbFor(profile));
		},

		/** Closes the database, e.g. before the profile is deleted. */
		close(): void {
			current?.keeper?.close();
			current?.db.close();
			current = null;
		}
	};
}

export type SearchApi = ReturnType<typeof createSearchApi>;
