// The sidebar's view of sessions: the order of the listed sessions (ids only), the rows of the
// few on screen, the search, the selection (by id, so it reaches sessions not on screen), the
// Archived list, and the row actions, each of which goes through the session layer. Deleting
// and archiving load on first use: the first screen does not need them.
import { SvelteSet } from 'svelte/reactivity';
import type { SessionSize } from '../../db/measure-sessions';
import type { SessionRow } from '../../db/schema';
import { countSessionGroups, listFirstSessions, listSessionOrder } from '../../db/session-order';
import { listArchivedSessions } from '../../db/session-verbs';
import { watch } from '../../db/watch';
import type { OperationOutcome } from '../../sessions/announce-removal';
import { renameSession, setPinned } from '../../sessions/edit-session';
import { createSearchClient, type SearchClient } from '../../sessions/search-client';
import type { ConfirmRequest } from '../shared/confirm.svelte';
import type { FreeSpace } from './free-space.svelte';
import { OperationIds } from './operation-ids';
import { SessionSearch } from './session-search.svelte';
import { SessionWindow } from './session-window.svelte';
import type { Services } from '../app/services';
import { groupBounds, groupStarts, type GroupLabel } from './session-groups';

const NO_GROUPS: ReadonlyMap<number, GroupLabel> = new Map();

/** Rows are read in pages of this many, so a small scroll reads nothing new. */
const PAGE = 40;
/** The search index starts loading this long after the list starts (once the first screen is in). */
const INDEX_AFTER_MS = 1500;
/** User Timing names: from reading the list to its first rows on screen (see SessionList). */
export const LIST_START_MARK = 'palimpsest:session-list-start';
export const LIST_SHOWN_MEASURE = 'palimpsest:session-list-shown';

/** What the sessions list needs from the open conversation. */
export interface OpenSession {
	readonly sessionId: string | null;
	/** `on_session_finalize` for the open session: it is about to go. */
	finalizeOpen(): void;
	/** The open session is gone or hidden: show a fresh draft. */
	leave(): Promise<void>;
}

export class SessionsState {
	/**
	 * Ids of every listed (not archived) session, pinned first, then most recently active
	 * (until `loaded`, only the first screen's).
	 */
	order = $state.raw<string[]>([]);
	loaded = $state(false);
	/** The ids the list shows: every listed session, or those the search matches (archived ones too), best first. */
	shown = $derived.by(() => this.#search.ranked ?? this.order);
	/** Selection mode ("Select" in the list's header): each row shows its checkbox. */
	selecting = $state(false);
	/** Sessions ticked in selection mode (kept while a search hides some of them). */
	selected = new SvelteSet<string>();
	/** The session whose title is being edited in its row, if any. */
	renaming = $state<string | null>(null);
	archived = $state<SessionRow[]>([]);
	archivedLoaded = $state(false);
	/** "Delete sessions" when storage is full: the largest sessions to tick and delete. */
	/** "Delete sessions" when storage is full: loaded the first time it is asked for. */
	freeSpace = $state.raw<FreeSpace | undefined>(undefined);
	#services: Services;
	#open: () => OpenSession;
	#ops = new OperationIds();
	#search: SessionSearch;
	#window: SessionWindow;
	#searchWorker: { client: SearchClient; dispose: () => void } | null = null;
	#groups = $state.raw<ReadonlyMap<number, GroupLabel>>(NO_GROUPS);
	/** "Select all" was pressed before every id was read: the rest are selected when they come. */
	#selectAllWhenLoaded = false;
	#client: () => SearchClient;

	constructor(services: Services, open: () => OpenSession, searchClient?: () => SearchClient) {
		this.#services = services;
		this.#open = open;
		this.#window = new SessionWindow(services.db);
		this.#client = searchClient ?? (() => (this.#searchWorker ??= createSearchClient()).client);
		this.#search = new SessionSearch({ db: services.db, profile: services.profile.name, client: this.#client });
	}

	/** Where each group of the list begins (none while searching: matches are listed as found). */
	get groups(): ReadonlyMap<number, GroupLabel> {
		return this.#search.ranked ? NO_GROUPS : this.#groups;
	}

	get query(): string {
		return this.#search.query;
	}

	/** True while the answer to the current query has not come yet. */
	get searching(): boolean {
		return this.#search.scanning;
	}

	/** Opens "Delete sessions", its code loaded on first use (only a full disk needs it). */
	async showFreeSpace(): Promise<void> {
		if (!this.freeSpace) {
			const { FreeSpace } = await import('./free-space.svelte');
			this.freeSpace ??= new FreeSpace({ measure: () => this.measureSessions(), remove: (ids) => this.remove(ids) });
		}
		await this.freeSpace.show();
	}

	/** The search: its progress while the index is built, and the snippet of each match. */
	get searchState(): SessionSearch {
		return this.#search;
	}

	/** The rows read for the sessions on screen, by id. */
	get rows(): ReadonlyMap<string, SessionRow> {
		return this.#window.rows;
	}

	start(): () => void {
		performance.mark(LIST_START_MARK);
		// The first screen comes straight from the index; reading every id takes longer, so it
		// starts once the first screen is in, rather than competing with it.
		let stop: (() => void) | null = null;
		let stopped = false;
		const follow = () => {
			if (stopped) return;
			stop = watch(
				() => Promise.all([listSessionOrder(this.#services.db), countSessionGroups(this.#services.db, groupBounds())]),
				([ids, counts]) => {
					this.order = ids;
					this.#groups = groupStarts(counts);
					this.loaded = true;
					if (this.#selectAllWhenLoaded) {
						this.#selectAllWhenLoaded = false;
						for (const id of ids) this.selected.add(id);
					}
					// A session deleted or archived anywhere (another tab, a sweep) leaves the selection.
					if (!this.selected.size) return;
					// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a throwaway lookup, not state
					const listed = new Set(ids);
					for (const id of this.selected) if (!listed.has(id)) this.selected.delete(id);
				}
			);
		};
		listFirstSessions(this.#services.db, PAGE).then(
			(rows) => {
				if (!this.loaded) {
					this.#window.prime(rows);
					this.order = rows.map((row) => row.id);
				}
				follow();
			},
			follow
		);
		const stopSearch = this.#search.start();
		// The index loads (or, for a profile from before it, builds) in the worker soon after the
		// first screen, so the first search finds it ready.
		const prepare = setTimeout(() => this.#search.prepare(), INDEX_AFTER_MS);
		return () => {
			stopped = true;
			clearTimeout(prepare);
			stop?.();
			stopSearch();
			this.#window.stop();
			this.#searchWorker?.dispose();
			this.#searchWorker = null;
		};
	}

	/**
	 * The list shows positions `from` to `to` (inclusive) of `shown`: their rows are read, with
	 * a page around them, and kept live.
	 */
	showRange(from: number, to: number): void {
		const start = Math.max(0, Math.floor(from / PAGE) * PAGE - PAGE);
		const end = Math.min(this.shown.length, (Math.floor(to / PAGE) + 2) * PAGE);
		this.#window.show(this.shown.slice(start, end));
	}

	/** Every session of the profile (archived ones too) with what it stores, largest first. */
	measureSessions(): Promise<SessionSize[]> {
		return this.#client().measureSessions(this.#services.profile.name);
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

	/** Starts the search worker, which loads (or builds) the index, so the first keystroke finds it ready. */
	prepareSearch(): void {
		this.#search.prepare();
	}

	/** Shows the sessions whose title or messages match, from the index; live while the query is set. */
	search(query: string): void {
		this.#search.set(query);
	}

	async rename(id: string, title: string): Promise<void> {
		await renameSession(this.#services.sessionContext(), id, title);
	}

	togglePin(session: SessionRow): Promise<void> {
		return setPinned(this.#services.sessionContext(), session.id, !session.pinned);
	}

	/** Enters or leaves selection mode; leaving it clears the selection. */
	setSelecting(on: boolean): void {
		this.selecting = on;
		if (!on) this.clearSelection();
	}

	toggleSelected(id: string, on: boolean): void {
		if (on) this.selected.add(id);
		else this.selected.delete(id);
	}

	/**
	 * Selects every session the list holds, or every match while searching, on screen or not.
	 * Pressed before the list has read every id (just after start), the rest follow as they come.
	 */
	selectAll(): void {
		for (const id of this.shown) this.selected.add(id);
		if (!this.loaded && !this.#search.ranked) this.#selectAllWhenLoaded = true;
	}

	clearSelection(): void {
		this.#selectAllWhenLoaded = false;
		this.selected.clear();
	}

	/** Ids of the selection that are still listed, in list order. */
	selectedIds(): string[] {
		return this.order.filter((id) => this.selected.has(id));
	}

	/** The question to ask before deleting `ids`: it lists every session the deletion will take. */
	async deletionPrompt(ids: string[]): Promise<ConfirmRequest> {
		const { planDeletionPrompt } = await import('./deletion-prompt');
		return planDeletionPrompt(this.#services.db, ids);
	}

	/**
	 * Deletes sessions (with their lineages and delegate children) as one operation. A repeat
	 * of the same request (a double click, a retry after an error) carries the same operation
	 * id, so it is answered from the receipt and announced once.
	 */
	async remove(ids: string[]): Promise<OperationOutcome> {
		const open = this.#open();
		if (open.sessionId && ids.includes(open.sessionId)) open.finalizeOpen();
		const { deleteSessions } = await import('../../sessions/delete-sessions');
		const outcome = await this.#ops.run('delete', ids, (opId) => deleteSessions(this.#services.sessionContext(), ids, opId));
		await this.#after(outcome);
		return outcome;
	}

	/** Archives sessions (with their lineages) as one operation; announced only if one changed. */
	async archive(ids: string[]): Promise<OperationOutcome> {
		const { archiveSessions } = await import('../../sessions/archive-sessions');
		const outcome = await this.#ops.run('archive', ids, (opId) => archiveSessions(this.#services.sessionContext(), ids, opId));
		await this.#after(outcome, false);
		return outcome;
	}

	/** Back to the list; quiet. A later Archive of these sessions is a new operation. */
	async unarchive(ids: string[]): Promise<void> {
		const { unarchiveSessions } = await import('../../sessions/archive-sessions');
		const changed = await unarchiveSessions(this.#services.sessionContext(), ids);
		this.#ops.forget([...ids, ...changed]);
	}

	async #after(outcome: OperationOutcome, leaveOpen = true): Promise<void> {
		for (const id of outcome.ids) this.selected.delete(id);
		const open = this.#open();
		if (leaveOpen && open.sessionId && outcome.ids.includes(open.sessionId)) await open.leave();
	}
}
