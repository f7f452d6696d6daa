// The sidebar's search: sessions whose title matches show at once, then those whose messages
// match, found by the search worker. A newer keystroke stops an older scan, and while a query
// is set, later writes (a streaming answer) refresh the matches at most once a second.
import type { PalimpsestDb } from '../db/database';
import { onTablesChanged } from '../db/watch';
import type { SearchCall } from '../sessions/search-api';
import type { SearchClient } from '../sessions/search-client';

/** Pause after the last keystroke before messages are scanned; titles need none. */
const SCAN_DELAY_MS = 150;
/** While a query is set, later writes refresh the matches at most this often (or, when a scan
 * takes long, no sooner than twice its time after the last one). */
const REFRESH_MS = 1000;

/** A snapshot of matching ids: replaced whole on each answer, never changed in place. */
function idSet(ids: readonly string[]): ReadonlySet<string> {
	return new Set(ids);
}

export interface SearchParts {
	db: PalimpsestDb;
	profile: string;
	client: () => SearchClient;
}

export class SessionSearch {
	query = $state('');
	/** Ids of the sessions that match the query; null while there is none. */
	matches = $state.raw<ReadonlySet<string> | null>(null);
	/** True until every message has been looked at for the current query. */
	scanning = $state(false);
	#parts: SearchParts;
	#titlesVersion = 0;
	#run = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#lastRefresh = 0;
	#scanMs = 0;

	constructor(parts: SearchParts) {
		this.#parts = parts;
	}

	/** Follows writes: renamed titles are read again, and a set query is refreshed. */
	start(): () => void {
		const stopSessions = onTablesChanged(this.#parts.db, ['sessions'], () => this.#titlesVersion++);
		const stopAll = onTablesChanged(this.#parts.db, ['sessions', 'messages'], () => this.#refreshSoon());
		return () => {
			stopSessions();
			stopAll();
			this.#clearTimer();
			this.#run++;
		};
	}

	/** Opens the database in the worker and caches the titles (the search box took focus). */
	prepare(): void {
		const call: SearchCall = { profile: this.#parts.profile, query: '', titlesVersion: this.#titlesVersion };
		this.#parts.client().prepare(call).catch((error) => console.error(error));
	}

	set(query: string): void {
		this.query = query;
		this.#clearTimer();
		const run = ++this.#run;
		if (!query.trim()) {
			this.matches = null;
			this.scanning = false;
			return;
		}
		this.scanning = true;
		void this.#search(run, query, false);
	}

	/** Title matches now (unless `quiet`: a refresh keeps what is shown), message matches after a pause. */
	async #search(run: number, query: string, quiet: boolean): Promise<void> {
		const call: SearchCall = { profile: this.#parts.profile, query, titlesVersion: this.#titlesVersion };
		try {
			const titles = await this.#parts.client().searchTitles(call);
			if (run !== this.#run) return;
			if (!quiet) this.matches = idSet(titles);
			this.#timer = setTimeout(() => {
				this.#timer = null;
				void this.#scan(run, call, titles);
			}, quiet ? 0 : SCAN_DELAY_MS);
		} catch (error) {
			this.#fail(run, error);
		}
	}

	async #scan(run: number, call: SearchCall, titles: string[]): Promise<void> {
		const started = Date.now();
		try {
			const content = await this.#parts.client().searchMessages(call, titles);
			if (run !== this.#run || content === null) return;
			this.matches = idSet([...titles, ...content]);
			this.scanning = false;
			this.#lastRefresh = Date.now();
			this.#scanMs = this.#lastRefresh - started;
		} catch (error) {
			this.#fail(run, error);
		}
	}

	#refreshSoon(): void {
		if (!this.query.trim() || this.#timer) return;
		const query = this.query;
		this.#timer = setTimeout(
			() => {
				this.#timer = null;
				if (this.query !== query) return;
				void this.#search(++this.#run, query, true);
			},
			Math.max(0, this.#lastRefresh + Math.max(REFRESH_MS, 2 * this.#scanMs) - Date.now())
		);
	}

	#fail(run: number, error: unknown): void {
		if (run !== this.#run) return;
		this.scanning = false;
		console.error(error);
	}

	#clearTimer(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
	}
}
