// The sidebar's view of sessions: the live list, the search filter and the row actions.
import type { PalimpsestDb } from '../db/database';
import type { SessionRow } from '../db/schema';
import { searchSessionIds } from '../db/search-sessions';
import { listSessions, renameSession, setPinned } from '../db/session-verbs';
import { watch, watchThrottled } from '../db/watch';

const SEARCH_DEBOUNCE_MS = 120;
/** While a query is set, later writes (a streaming answer) refresh the matches at most this often. */
const SEARCH_REFRESH_MS = 1000;

export class SessionsState {
	all = $state<SessionRow[]>([]);
	loaded = $state(false);
	query = $state('');
	matches = $state<Set<string> | null>(null);
	visible = $derived(this.matches ? this.all.filter((s) => this.matches!.has(s.id)) : this.all);
	#db: PalimpsestDb;
	#stopSearch: (() => void) | null = null;

	constructor(db: PalimpsestDb) {
		this.#db = db;
	}

	start(): () => void {
		const stop = watch(
			() => listSessions(this.#db),
			(rows) => {
				this.all = rows;
				this.loaded = true;
			}
		);
		return () => {
			stop();
			this.#stopSearch?.();
		};
	}

	/**
	 * Filters by title and content; the match set stays live while the query is set. Each
	 * search reads every message, so typing is debounced and later writes are throttled.
	 */
	search(query: string): void {
		this.query = query;
		this.#stopSearch?.();
		this.#stopSearch = null;
		if (!query.trim()) {
			this.matches = null;
			return;
		}
		const timer = setTimeout(() => {
			this.#stopSearch = watchThrottled(
				this.#db,
				['sessions', 'messages'],
				() => searchSessionIds(this.#db, query),
				(ids) => {
					if (this.query === query) this.matches = ids;
				},
				SEARCH_REFRESH_MS
			);
		}, SEARCH_DEBOUNCE_MS);
		this.#stopSearch = () => clearTimeout(timer);
	}

	rename(id: string, title: string): Promise<void> {
		return renameSession(this.#db, id, title);
	}

	togglePin(session: SessionRow): Promise<void> {
		return setPinned(this.#db, session.id, !session.pinned);
	}
}
