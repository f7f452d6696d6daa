// The sidebar's search: each keystroke asks the search worker's index, which answers sessions
// ranked by relevance and recency, the first ones with a snippet of the matching message. While
// the index is being built (a profile from before it, or a damaged one), its progress shows and
// the answers are those found so far. While a query is set, later writes refresh it.
import type { PalimpsestDb } from '../../db/database';
import { onTablesChanged } from '../../db/watch';
import type { IndexProgress } from '../../search/index-keeper';
import type { SearchAnswer, SearchHit } from '../../sessions/search-api';
import type { SearchClient } from '../../sessions/search-client';
import { describeError } from '../shared/turn-helpers';

/** While a query is set, later writes refresh it after this pause (the index follows in ~50 ms). */
const REFRESH_MS = 300;
/** While the index is being built, its progress is read this often. */
const PROGRESS_MS = 500;

/** A snapshot of the hits by session: replaced whole on each answer, never changed in place. */
function byId(hits: readonly SearchHit[]): ReadonlyMap<string, SearchHit> {
	return new Map(hits.map((hit) => [hit.sessionId, hit]));
}

/** User Timing mark: the index is loaded and caught up (benchmarks and performance tools). */
export const INDEX_READY_MARK = 'palimpsest:search-index-ready';

export interface SearchParts {
	db: PalimpsestDb;
	profile: string;
	client: () => SearchClient;
}

export class SessionSearch {
	query = $state('');
	/** Ids of the sessions that match the query, best first; null while there is none. */
	ranked = $state.raw<readonly string[] | null>(null);
	/** The best matches with their snippets, by session id. */
	hits = $state.raw(byId([]));
	/** True until the answer to the current query came. */
	scanning = $state(false);
	/** Why the last search found nothing, when it failed (shown under the search box). */
	error = $state('');
	/** Set while the index is being built. */
	progress = $state.raw<IndexProgress | null>(null);
	#parts: SearchParts;
	#run = 0;
	#refresh: ReturnType<typeof setTimeout> | null = null;
	#poll: ReturnType<typeof setTimeout> | null = null;
	#stopped = false;
	#ready = false;

	constructor(parts: SearchParts) {
		this.#parts = parts;
	}

	/** Follows writes: a set query is asked again. */
	start(): () => void {
		const stop = onTablesChanged(this.#parts.db, ['sessions', 'messages'], () => this.#refreshSoon());
		return () => {
			this.#stopped = true;
			stop();
			for (const timer of [this.#refresh, this.#poll]) if (timer) clearTimeout(timer);
			this.#run++;
		};
	}

	/** Starts the worker, which loads the index (or builds it, with progress shown). */
	prepare(): void {
		this.#parts
			.client()
			.prepare(this.#parts.profile)
			.then((progress) => this.#showProgress(progress))
			.catch((error) => console.error(error));
	}

	set(query: string): void {
		this.query = query;
		const run = ++this.#run;
		if (!query.trim()) {
			this.error = '';
			this.ranked = null;
			this.hits = byId([]);
			this.scanning = false;
			return;
		}
		this.scanning = true;
		void this.#search(run, query);
	}

	/** The best hit of a session for the current query (to open it at the matching message). */
	hitFor(sessionId: string): SearchHit | undefined {
		return this.hits.get(sessionId);
	}

	async #search(run: number, query: string): Promise<void> {
		let answer: SearchAnswer;
		try {
			answer = await this.#parts.client().search({ profile: this.#parts.profile, query });
		} catch (error) {
			if (run !== this.#run) return;
			this.scanning = false;
			this.error = `Search failed: ${describeError(error)}`;
			return;
		}
		if (run !== this.#run) return;
		this.error = '';
		this.ranked = answer.ids;
		this.hits = byId(answer.hits);
		this.scanning = false;
		this.#showProgress(answer.progress);
	}

	#showProgress(progress: IndexProgress | null): void {
		if (!progress && !this.#ready) performance.mark(INDEX_READY_MARK);
		this.#ready ||= !progress;
		this.progress = progress;
		if (!progress || this.#poll || this.#stopped) return;
		this.#poll = setTimeout(() => {
			this.#poll = null;
			this.#parts
				.client()
				.status(this.#parts.profile)
				.then((status) => {
					this.#showProgress(status.progress);
					// The build went on: ask the current query again for what it found since.
					if (this.query.trim()) this.#refreshSoon();
				})
				.catch((error) => console.error(error));
		}, PROGRESS_MS);
	}

	#refreshSoon(): void {
		if (!this.query.trim() || this.#refresh || this.#stopped) return;
		this.#refresh = setTimeout(() => {
			this.#refresh = null;
			const query = this.query;
			if (query.trim()) void this.#search(++this.#run, query);
		}, REFRESH_MS);
	}
}
