// What each committed transaction changed in sessions and messages, for in-memory state that
// must follow the database exactly (the token tally of a session). Dexie announces every commit
// in 'storagemutated' with key ranges only: at once for this tab's connections, and through a
// BroadcastChannel for other tabs. A DBCore middleware keeps the rows this tab's transactions
// wrote, keyed by the very object Dexie announces, so a commit of this tab arrives with its rows
// (nothing to read back) and anything else arrives as key ranges to read again.
import Dexie, { cmp, type DBCore, type DBCoreMutateRequest, type DBCoreMutateResponse, type IntervalTree, type ObservabilitySet } from 'dexie';
import type { MessageRow, SessionRow } from './schema';

interface KeyRange {
	from: unknown;
	to: unknown;
}

type Written =
	| { table: 'messages'; key: [string, number]; row: MessageRow | null }
	| { table: 'sessions'; key: string; row: SessionRow | null }
	/** Removed by a range (deleteRange): no rows listed, the range is read again. */
	| { table: 'messages' | 'sessions'; range: KeyRange };

/** A span of one session's message seqs (ends included; ±Infinity when open). */
export interface SeqRange {
	from: number;
	to: number;
}

/** The rows this tab's transactions wrote, by the object Dexie announces at their commit. */
const writtenByParts = new WeakMap<object, Written[]>();
/** Rows written so far by an uncommitted transaction, by the transaction. */
const writtenByTransaction = new WeakMap<object, Written[]>();

const TRACKED = new Set(['messages', 'sessions']);

function record(trans: object, table: string, req: DBCoreMutateRequest, res: DBCoreMutateResponse): void {
	const list = writtenByTransaction.get(trans) ?? [];
	writtenByTransaction.set(trans, list);
	const failed = (index: number) => res.numFailures > 0 && index in res.failures;
	if (req.type === 'add' || req.type === 'put') {
		// A shallow copy: the caller may change its object after the write (Dexie stores a clone).
		req.values.forEach((value, index) => {
			if (failed(index)) return;
			const row = { ...value };
			if (table === 'messages') list.push({ table, key: [row.session_id, row.seq], row });
			else list.push({ table: 'sessions', key: row.id, row });
		});
	} else if (req.type === 'delete') {
		req.keys.forEach((key, index) => {
			if (!failed(index)) list.push(table === 'messages' ? { table: 'messages', key, row: null } : { table: 'sessions', key, row: null });
		});
	} else {
		list.push({ table: table as 'messages' | 'sessions', range: { from: req.range.lower ?? -Infinity, to: req.range.upper ?? [[]] } });
	}
	// Dexie extends the same object for every write of a transaction and announces it at the commit.
	const parts = (trans as { mutatedParts?: object }).mutatedParts;
	if (parts) writtenByParts.set(parts, list);
}

/** Keeps, per transaction, the session and message rows it wrote (installed in the constructor). */
export function recordWrittenRows(db: Dexie): void {
	db.use({
		stack: 'dbcore',
		name: 'committed-changes',
		create: (down: DBCore): Partial<DBCore> => ({
			...down,
			table: (name) => {
				const table = down.table(name);
				if (!TRACKED.has(name)) return table;
				return {
					...table,
					mutate: (req) =>
						table.mutate(req).then((res) => {
							record(req.trans, name, req, res);
							return res;
						})
				};
			}
		})
	});
}

function* rangesOf(tree: IntervalTree | undefined): Generator<KeyRange> {
	if (!tree || !('from' in tree)) return;
	yield* rangesOf(tree.l ?? undefined);
	yield { from: tree.from, to: tree.to };
	yield* rangesOf(tree.r ?? undefined);
}

/** One commit as a listener sees it. */
export class CommittedChanges {
	/** Anything may have changed (a page back from the back/forward cache, a reopened connection). */
	readonly everything: boolean;
	readonly #rows: Map<string, Array<{ seq: number; row: MessageRow | null }>> = new Map();
	readonly #sessions: Map<string, SessionRow | null> = new Map();
	readonly #messageRanges: KeyRange[];
	readonly #sessionRanges: KeyRange[];

	constructor(parts: ObservabilitySet, dbName: string, written: Written[] | undefined) {
		this.everything = 'all' in parts;
		// Another tab's commit (or one no middleware saw): only its key ranges are known.
		this.#messageRanges = written ? [] : [...rangesOf(parts[`idb://${dbName}/messages/`])];
		this.#sessionRanges = written ? [] : [...rangesOf(parts[`idb://${dbName}/sessions/`])];
		for (const item of written ?? []) {
			if ('range' in item) (item.table === 'messages' ? this.#messageRanges : this.#sessionRanges).push(item.range);
			else if (item.table === 'sessions') this.#sessions.set(item.key, item.row);
			else {
				const list = this.#rows.get(item.key[0]) ?? [];
				list.push({ seq: item.key[1], row: item.row });
				this.#rows.set(item.key[0], list);
			}
		}
	}

	/** Message rows of `sessionId` as this tab wrote them, in write order (null: deleted). */
	rowsOf(sessionId: string): ReadonlyArray<{ seq: number; row: MessageRow | null }> {
		return this.#rows.get(sessionId) ?? [];
	}

	/** The session row as this tab wrote it: a row, null (deleted), or undefined (not written here). */
	sessionRow(sessionId: string): SessionRow | null | undefined {
		return this.#sessions.get(sessionId);
	}

	/** Seq ranges of `sessionId` written where this tab could not see the rows: read them again. */
	unseenSeqs(sessionId: string): SeqRange[] {
		const low = [sessionId, -Infinity];
		const high = [sessionId, Infinity];
		const seqs: SeqRange[] = [];
		for (const { from, to } of this.#messageRanges) {
			if (cmp(to, low) < 0 || cmp(from, high) > 0) continue;
			const start = cmp(from, low) <= 0 ? -Infinity : seqOf(from, -Infinity);
			const end = cmp(to, high) >= 0 ? Infinity : seqOf(to, Infinity);
			seqs.push({ from: start, to: end });
		}
		return seqs;
	}

	/**
	 * Every session this commit touched (its row or its messages), or null when a range spans
	 * several sessions (or anything may have changed): then every session is to be looked at.
	 */
	touchedSessions(): Set<string> | null {
		if (this.everything) return null;
		const ids = new Set([...this.#rows.keys(), ...this.#sessions.keys()]);
		for (const { from, to } of this.#sessionRanges) {
			if (typeof from !== 'string' || from !== to) return null;
			ids.add(from);
		}
		for (const { from, to } of this.#messageRanges) {
			const session = Array.isArray(from) && Array.isArray(to) && from[0] === to[0] ? from[0] : null;
			if (typeof session !== 'string') return null;
			ids.add(session);
		}
		return ids;
	}

	/** The session row was written where this tab could not see it: read it again. */
	sessionUnseen(sessionId: string): boolean {
		return this.#sessionRanges.some(({ from, to }) => cmp(from, sessionId) <= 0 && cmp(to, sessionId) >= 0);
	}
}

/** A key inside one session's span is [session_id, seq]; anything else stands for the open end. */
function seqOf(key: unknown, open: number): number {
	return Array.isArray(key) && typeof key[1] === 'number' ? key[1] : open;
}

type Listener = (changes: CommittedChanges) => void;
const listeners = new Map<string, Set<Listener>>();

function onStorageMutated(parts: ObservabilitySet): void {
	const written = writtenByParts.get(parts);
	for (const [dbName, set] of listeners) {
		const prefixes = [`idb://${dbName}/messages/`, `idb://${dbName}/sessions/`];
		if (!('all' in parts) && !Object.keys(parts).some((key) => prefixes.some((prefix) => key.startsWith(prefix)))) continue;
		const changes = new CommittedChanges(parts, dbName, written);
		for (const listener of set) {
			// Dexie calls its subscribers in a chain: one that throws would silence the rest.
			try {
				listener(changes);
			} catch (error) {
				console.error(error);
			}
		}
	}
}

/**
 * Calls `listener` once per committed transaction that wrote to the sessions or messages of
 * `db`'s database (any connection, this tab or another), before the writer's own code goes on.
 */
export function watchCommittedChanges(db: Dexie, listener: Listener): () => void {
	if (!listeners.size) Dexie.on('storagemutated', onStorageMutated);
	const set = listeners.get(db.name) ?? new Set<Listener>();
	set.add(listener);
	listeners.set(db.name, set);
	return () => {
		set.delete(listener);
		if (!set.size) listeners.delete(db.name);
		if (!listeners.size) Dexie.on('storagemutated').unsubscribe(onStorageMutated);
	};
}
