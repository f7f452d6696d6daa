// Keeps one profile's search index in step with its database, in the search worker: loads the
// stored snapshot (a damaged or missing one is rebuilt, never an error), catches up with every
// session whose row changed since, follows each committed change of any tab (rows and whole
// sessions taken out in the same pass), and writes the snapshot back while searches are idle.
import { Dexie, type PalimpsestDb } from '../db/database';
import { watchCommittedChanges, type CommittedChanges } from '../db/committed-changes';
import type { MessageRow, SessionRow } from '../db/schema';
import { fingerprintOf, MessageIndex } from './message-index';

const SNAPSHOT_KEY = 'messages';
/**
 * The sessions changed since the snapshot was written, kept beside it (a few ids, written when
 * one is added): the next start indexes them again even when a change left the session's row
 * as it was.
 */
const CHANGED_KEY = 'changed';
/** Message rows read per step of a full build: small enough that a search waits little between steps. */
const BUILD_CHUNK = 250;
/** More stale sessions than this are read by one pass over every message, fewer one by one. */
const BULK_SESSIONS = 200;
/** Commits are applied together after this pause (a streaming answer writes often). */
const FOLLOW_MS = 50;
/** The snapshot is written once no search came for this long. */
const SAVE_IDLE_MS = 3000;
/**
 * Messages indexed again since the last snapshot before it is worth writing a new one (it is
 * the whole index, tens of megabytes in a large profile, so not after every answer): fewer
 * are caught up at the next start from their sessions' fingerprints, in moments.
 */
const SAVE_AFTER_MESSAGES = 2000;

export interface IndexProgress {
	/** Sessions indexed so far, of `total` to catch up. */
	done: number;
	total: number;
}

export interface KeeperStatus {
	progress: IndexProgress | null;
	documents: number;
	/** How long the last batch of followed changes took to index, per message (ms). */
	lastUpdateMs: number;
	/** How long the last catch-up (or full build) took, and how many sessions it indexed. */
	lastCatchUp: { ms: number; sessions: number } | null;
	snapshotChars: number;
}

export class IndexKeeper {
	index = new MessageIndex();
	progress: IndexProgress | null = null;
	readonly loaded: Promise<void>;
	#db: PalimpsestDb;
	#stop: () => void;
	#pending = new Map<string, CommittedChanges[]>();
	#everything = false;
	#followTimer: ReturnType<typeof setTimeout> | null = null;
	#saveTimer: ReturnType<typeof setTimeout> | null = null;
	#busy: Promise<void> = Promise.resolve();
	/** Sessions changed since the snapshot was written (as stored under CHANGED_KEY). */
	#changed = new Set<string>();
	/** Messages indexed again since the snapshot was written. */
	#unsaved = 0;
	#lastUse = 0;
	#closed = false;
	#status: Omit<KeeperStatus, 'progress' | 'documents'> = { lastUpdateMs: 0, lastCatchUp: null, snapshotChars: 0 };

	constructor(db: PalimpsestDb) {
		this.#db = db;
		this.#stop = watchCommittedChanges(db, (changes) => this.#follow(changes));
		this.loaded = this.#load();
		this.#busy = this.loaded.then(() => this.#catchUp());
		this.#busy.catch((error) => console.error(error));
	}

	/** A search came: the snapshot waits until searches pause. */
	touch(): void {
		this.#lastUse = Date.now();
	}

	/** Resolves once everything known so far is indexed (tests, benchmarks). */
	async settled(): Promise<void> {
		for (;;) {
			const busy = this.#busy;
			await busy;
			if (busy === this.#busy && !this.#followTimer) return;
			if (this.#followTimer) await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
		}
	}

	status(): KeeperStatus {
		return { progress: this.progress, documents: this.index.documentCount, ...this.#status };
	}

	/** Writes the snapshot now (tests, benchmarks); otherwise it is written when idle. */
	async save(): Promise<void> {
		await this.settled();
		await this.#write();
	}

	async #write(): Promise<void> {
		const data = this.index.serialize();
		this.#status.snapshotChars = data.length;
		await this.#db.transaction('rw', this.#db.search_index, async () => {
			await this.#db.search_index.put({ key: SNAPSHOT_KEY, data, at: Date.now() });
			await this.#db.search_index.delete(CHANGED_KEY);
		});
		this.#unsaved = 0;
		this.#changed.clear();
	}

	close(): void {
		this.#closed = true;
		this.#stop();
		for (const timer of [this.#followTimer, this.#saveTimer]) if (timer) clearTimeout(timer);
	}

	async #load(): Promise<void> {
		try {
			const [row, changed] = await this.#db.search_index.bulkGet([SNAPSHOT_KEY, CHANGED_KEY]);
			if (row) this.index = MessageIndex.parse(row.data);
			// Caught up below as stale, whatever their rows say.
			const ids: unknown = changed ? JSON.parse(changed.data) : [];
			if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') this.#changed.add(id);
		} catch (error) {
			// Derived data: a snapshot that cannot be read is rebuilt from the messages.
			console.warn('The search index is rebuilt:', error);
			this.index = new MessageIndex();
		}
	}

	/** Indexes every session whose row differs from what was indexed; drops sessions that are gone. */
	async #catchUp(): Promise<void> {
		const started = performance.now();
		// Set at once, so a caller that saw the snapshot load sees a catch-up under way.
		this.progress = { done: 0, total: 0 };
		const rows = await this.#db.sessions.toArray();
		const live = new Map(rows.map((row) => [row.id, row]));
		for (const id of [...this.index.sessions.keys()]) if (!live.has(id)) this.index.removeSession(id);
		const stale = rows.filter((row) => this.#changed.has(row.id) || this.index.sessions.get(row.id)?.fingerprint !== fingerprintOf(row));
		if (stale.length) {
			this.progress = { done: 0, total: stale.length };
			if (stale.length > BULK_SESSIONS) await this.#buildByScan(new Map(stale.map((row) => [row.id, row])));
			else for (const row of stale) await this.#reindexSession(row);
		}
		this.progress = null;
		this.#status.lastCatchUp = { ms: performance.now() - started, sessions: stale.length };
		this.#saveSoon();
	}

	async #reindexSession(row: SessionRow): Promise<void> {
		if (this.#closed) return;
		const messages = await this.#db.messages.where('[session_id+seq]').between([row.id, Dexie.minKey], [row.id, Dexie.maxKey]).toArray();
		this.index.setSession(row, messages);
		this.#unsaved += messages.length + 1;
		if (this.progress) this.progress.done++;
	}

	/** One pass over every message in key order (sessions come whole, one after another). */
	async #buildByScan(stale: Map<string, SessionRow>): Promise<void> {
		let current: { row: SessionRow; messages: MessageRow[] } | null = null;
		const flush = () => {
			if (!current) return;
			this.index.setSession(current.row, current.messages);
			this.#unsaved += current.messages.length + 1;
			stale.delete(current.row.id);
			if (this.progress) this.progress.done++;
			current = null;
		};
		let after: [string, number] | null = null;
		for (;;) {
			if (this.#closed) return;
			const from = after ? this.#db.messages.where(':id').above(after) : this.#db.messages.toCollection();
			const chunk: MessageRow[] = await from.limit(BUILD_CHUNK).toArray();
			for (const message of chunk) {
				if (current?.row.id !== message.session_id) {
					flush();
					const row = stale.get(message.session_id);
					if (row) current = { row, messages: [] };
				}
				current?.messages.push(message);
			}
			if (chunk.length < BUILD_CHUNK) break;
			const last = chunk[chunk.length - 1];
			after = [last.session_id, last.seq];
		}
		flush();
		// Sessions without any message left.
		for (const row of stale.values()) this.index.setSession(row, []);
	}

	#follow(changes: CommittedChanges): void {
		const touched = changes.touchedSessions();
		if (!touched) this.#everything = true;
		else for (const id of touched) this.#pending.set(id, [...(this.#pending.get(id) ?? []), changes]);
		this.#followTimer ??= setTimeout(() => {
			this.#followTimer = null;
			this.#busy = this.#busy.then(() => this.#applyPending()).catch((error) => console.error(error));
		}, FOLLOW_MS);
	}

	/** Applies the commits seen since the last pass: only the rows they name are read again. */
	async #applyPending(): Promise<void> {
		if (this.#closed) return;
		if (this.#everything) {
			this.#everything = false;
			this.#pending.clear();
			return this.#catchUp();
		}
		const pending = this.#pending;
		this.#pending = new Map();
		const ids = [...pending.keys()];
		const rows = await this.#db.sessions.bulkGet(ids);
		const reads = await Promise.all(ids.map((id) => this.#changedMessages(id, pending.get(id) ?? [])));
		const started = performance.now();
		let count = 0;
		ids.forEach((id, i) => {
			const row = rows[i];
			if (!row) return this.index.removeSession(id);
			this.index.putSession(row);
			for (const [seq, message] of reads[i]) {
				if (message) this.index.putMessage(message);
				else this.index.removeMessage(id, seq);
				count++;
			}
		});
		if (count) this.#status.lastUpdateMs = (performance.now() - started) / count;
		this.#unsaved += count + ids.length;
		await this.#noteChanged(ids);
		this.#saveSoon();
	}

	/** Adds sessions to the stored list of those changed since the snapshot (written only when it grows). */
	async #noteChanged(ids: readonly string[]): Promise<void> {
		const before = this.#changed.size;
		for (const id of ids) this.#changed.add(id);
		if (this.#changed.size === before) return;
		await this.#db.search_index.put({ key: CHANGED_KEY, data: JSON.stringify([...this.#changed]), at: Date.now() });
	}

	/** The message rows of one session these commits wrote, by seq (null: removed). */
	async #changedMessages(id: string, commits: CommittedChanges[]): Promise<Map<number, MessageRow | null>> {
		const out = new Map<number, MessageRow | null>();
		for (const commit of commits) {
			for (const { seq, row } of commit.rowsOf(id)) out.set(seq, row);
			for (const range of commit.unseenSeqs(id)) {
				const lower = Number.isFinite(range.from) ? range.from : Dexie.minKey;
				const upper = Number.isFinite(range.to) ? range.to : Dexie.maxKey;
				const found = await this.#db.messages.where('[session_id+seq]').between([id, lower], [id, upper], true, true).toArray();
				const present = new Set(found.map((row) => row.seq));
				// Rows indexed in the range but no longer stored were removed.
				for (const seq of this.index.messageSeqs(id)) if (seq >= range.from && seq <= range.to && !present.has(seq)) out.set(seq, null);
				for (const row of found) out.set(row.seq, row);
			}
		}
		return out;
	}

	#saveSoon(): void {
		if (this.#saveTimer || this.#closed || this.#unsaved < SAVE_AFTER_MESSAGES) return;
		this.#saveTimer = setTimeout(() => {
			this.#saveTimer = null;
			if (this.#closed || this.#unsaved < SAVE_AFTER_MESSAGES) return;
			const idleFor = Date.now() - this.#lastUse;
			if (idleFor < SAVE_IDLE_MS || this.progress) return this.#saveSoon();
			this.#busy = this.#busy.then(() => this.#write()).catch((error) => console.warn('The search index was not saved:', error));
		}, SAVE_IDLE_MS);
	}
}
