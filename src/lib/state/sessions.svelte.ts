// The sidebar's view of sessions: the live list, the search filter, the selection, the
// Archived list, and the row actions, each of which goes through the session layer. Deleting
// and archiving load on first use: the first screen does not need them.
import { SvelteSet } from 'svelte/reactivity';
import type { SessionRow } from '../db/schema';
import { searchSessionIds } from '../db/search-sessions';
import { listArchivedSessions, listSessions } from '../db/session-verbs';
import { watch, watchThrottled } from '../db/watch';
import type { OperationOutcome } from '../sessions/announce-removal';
import { renameSession, setPinned } from '../sessions/edit-session';
import { OperationIds } from './operation-ids';
import type { Services } from './services';

const SEARCH_DEBOUNCE_MS = 120;
/** While a query is set, later writes (a streaming answer) refresh the matches at most this often. */
const SEARCH_REFRESH_MS = 1000;

/** What the sessions list needs from the open conversation. */
export interface OpenSession {
	readonly sessionId: string | null;
	/** `on_session_finalize` for the open session: it is about to go. */
	finalizeOpen(): void;
	/** The open session is gone or hidden: show a fresh draft. */
	leave(): Promise<void>;
}

export class SessionsState {
	all = $state<SessionRow[]>([]);
	loaded = $state(false);
	query = $state('');
	matches = $state<Set<string> | null>(null);
	visible = $derived(this.matches ? this.all.filter((s) => this.matches!.has(s.id)) : this.all);
	/** Sessions ticked with "Select" (kept while a search hides some of them). */
	selected = new SvelteSet<string>();
	archived = $state<SessionRow[]>([]);
	archivedLoaded = $state(false);
	#services: Services;
	#open: () => OpenSession;
	#ops = new OperationIds();
	#stopSearch: (() => void) | null = null;

	constructor(services: Services, open: () => OpenSession) {
		this.#services = services;
		this.#open = open;
	}

	start(): () => void {
		const stop = watch(
			() => listSessions(this.#services.db),
			(rows) => {
				this.all = rows;
				this.loaded = true;
				// A session deleted or archived anywhere (another tab, a sweep) leaves the selection.
				if (!this.selected.size) return;
				const listed: Record<string, true> = Object.fromEntries(rows.map((row) => [row.id, true]));
				for (const id of this.selected) if (!listed[id]) this.selected.delete(id);
			}
		);
		return () => {
			stop();
			this.#stopSearch?.();
		};
	}

	/** Keeps `archived` live while the Archived view shows it. */
	followArchived(): () => void {
		return watch(
			() => listArchivedSessions(this.#services.db),
			(rows) => {
				this.archived = rows;
				this.archivedLoaded = true;
			}
		);
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
				this.#services.db,
				['sessions', 'messages'],
				() => searchSessionIds(this.#services.db, query),
				(ids) => {
					if (this.query === query) this.matches = ids;
				},
				SEARCH_REFRESH_MS
			);
		}, SEARCH_DEBOUNCE_MS);
		this.#stopSearch = () => clearTimeout(timer);
	}

	rename(id: string, title: string): Promise<void> {
		return renameSession(this.#services.sessionContext(), id, title);
	}

	togglePin(session: SessionRow): Promise<void> {
		return setPinned(this.#services.sessionContext(), session.id, !session.pinned);
	}

	toggleSelected(id: string, on: boolean): void {
		if (on) this.selected.add(id);
		else this.selected.delete(id);
	}

	/** Selects every session the list shows now (the search filter applies). */
	selectVisible(): void {
		for (const session of this.visible) this.selected.add(session.id);
	}

	clearSelection(): void {
		this.selected.clear();
	}

	/** Ids of the selection that are still listed, in list order. */
	selectedIds(): string[] {
		return this.all.filter((row) => this.selected.has(row.id)).map((row) => row.id);
	}

	/**
	 * Deletes sessions (with their lineages and delegate children) as one operation. A repeat
	 * of the same request (a double click, a retry after an error) carries the same operation
	 * id, so it is answered from the receipt and announced once.
	 */
	async remove(ids: string[]): Promise<OperationOutcome> {
		const open = this.#open();
		if (open.sessionId && ids.includes(open.sessionId)) open.finalizeOpen();
		const { deleteSessions } = await import('../sessions/delete-sessions');
		const outcome = await this.#ops.run('delete', ids, (opId) => deleteSessions(this.#services.sessionContext(), ids, opId));
		await this.#after(outcome);
		return outcome;
	}

	/** Archives sessions (with their lineages) as one operation; announced only if one changed. */
	async archive(ids: string[]): Promise<OperationOutcome> {
		const { archiveSessions } = await import('../sessions/archive-sessions');
		const outcome = await this.#ops.run('archive', ids, (opId) => archiveSessions(this.#services.sessionContext(), ids, opId));
		await this.#after(outcome, false);
		return outcome;
	}

	/** Back to the list; quiet. A later Archive of these sessions is a new operation. */
	async unarchive(ids: string[]): Promise<void> {
		const { unarchiveSessions } = await import('../sessions/archive-sessions');
		const changed = await unarchiveSessions(this.#services.sessionContext(), ids);
		this.#ops.forget([...ids, ...changed]);
	}

	async #after(outcome: OperationOutcome, leaveOpen = true): Promise<void> {
		for (const id of outcome.ids) this.selected.delete(id);
		const open = this.#open();
		if (leaveOpen && open.sessionId && outcome.ids.includes(open.sessionId)) await open.leave();
	}
}
