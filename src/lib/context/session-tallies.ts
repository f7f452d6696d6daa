// The session tallies of one database connection, kept in step with every commit: this tab's
// commits arrive with their rows (applied as they are), other tabs' as key ranges (read again,
// those rows only, at the next use). A tally is read whole only the first time, after a change
// of encoding, or when a commit touched a whole session (or everything) without its rows.
import { listActiveMessages } from '../db/compaction-verbs';
import { watchCommittedChanges, type CommittedChanges, type SeqRange } from '../db/committed-changes';
import type { PalimpsestDb } from '../db/database';
import type { MessageRow, SessionRow } from '../db/schema';
import type { EncodingName } from './count-tokens';
import { SessionTally } from './session-tally';

/** What an estimate needs of the session row. */
export interface SessionFacts {
	token_estimate: number;
	token_ratio?: number;
}

interface Slot {
	/** Null: every live row is read again at the next use. */
	tally: SessionTally | null;
	/** The session row as last known (null: it is gone). */
	session: SessionFacts | null;
	/** The session row changed where this tab could not see it. */
	sessionStale: boolean;
	/** Seq ranges changed where this tab could not see the rows. */
	dirty: SeqRange[];
	/** Commits that arrived while a read was under way: applied after it, being newer. */
	queued: CommittedChanges[] | null;
	reading: Promise<void> | null;
	/** A token_estimate being written, so a second estimate does not write it again. */
	writingTotal: number | null;
}

/** Sessions remembered per connection (the open one, a few recent ones). */
const MAX_SESSIONS = 8;
/** Past this many changed ranges, one read of every live row is cheaper. */
const MAX_RANGES = 16;
/** Reads of what changed meanwhile, at most, before an estimate goes on with what it has. */
const MAX_READS = 3;

const factsOf = (row: SessionRow | undefined | null): SessionFacts | null =>
	row ? { token_estimate: row.token_estimate, token_ratio: row.token_ratio } : null;

export class SessionTallies {
	readonly #db: PalimpsestDb;
	/** Insertion order is recency order. */
	readonly #slots = new Map<string, Slot>();
	readonly #unwatch: () => void;
	#writes: Promise<unknown> = Promise.resolve();

	constructor(db: PalimpsestDb) {
		this.#db = db;
		this.#unwatch = watchCommittedChanges(db, (changes) => {
			for (const [sessionId, slot] of this.#slots) this.#apply(sessionId, slot, changes);
		});
	}

	/** The session's tally for `encoding` and its row's facts, up to date; null if the session is gone. */
	async current(sessionId: string, encoding: EncodingName): Promise<{ tally: SessionTally; session: SessionFacts } | null> {
		const slot = this.#slot(sessionId);
		let tally: SessionTally | null = null;
		for (let reads = 0; ; ) {
			if (slot.reading) {
				await slot.reading.catch(() => {});
				continue;
			}
			if (slot.tally && slot.tally.encoding !== encoding) slot.tally = null;
			tally = slot.tally ?? tally;
			const settled = slot.tally && !slot.dirty.length && !slot.sessionStale;
			// Under a stream of other tabs' writes, go on with what was read: the rest is newer than this call.
			if (settled || (tally && reads >= MAX_READS)) break;
			reads += 1;
			const reading = this.#read(sessionId, slot, encoding);
			slot.reading = reading.then(
				() => {},
				() => {}
			);
			tally = await reading.finally(() => (slot.reading = null));
		}
		return slot.session && tally ? { tally, session: slot.session } : null;
	}

	/**
	 * Runs `write` after the writes handed here before it, so a later estimate's total never lands
	 * under an earlier one. `writingTotal` marks the session's token_estimate as on its way.
	 */
	write(sessionId: string, total: number | null, write: () => Promise<void>): Promise<void> {
		const slot = this.#slots.get(sessionId);
		if (slot && total !== null) slot.writingTotal = total;
		const done = this.#writes.then(write);
		this.#writes = done.catch(() => {});
		return done.finally(() => {
			if (slot && slot.writingTotal === total) slot.writingTotal = null;
		});
	}

	/** The total already stored or being stored for the session. */
	storedTotal(sessionId: string): number | undefined {
		const slot = this.#slots.get(sessionId);
		return slot?.writingTotal ?? slot?.session?.token_estimate;
	}

	/** Forgets every tally (each is read again at its next use). */
	clear(): void {
		this.#slots.clear();
	}

	dispose(): void {
		this.#unwatch();
		this.#slots.clear();
	}

	#slot(sessionId: string): Slot {
		const slot = this.#slots.get(sessionId) ?? { tally: null, session: null, sessionStale: true, dirty: [], queued: null, reading: null, writingTotal: null };
		this.#slots.delete(sessionId);
		this.#slots.set(sessionId, slot);
		for (const [oldest] of this.#slots) {
			if (this.#slots.size <= MAX_SESSIONS) break;
			this.#slots.delete(oldest);
		}
		return slot;
	}

	/** Reads what changed (or everything) and returns the tally it made or brought up to date. */
	async #read(sessionId: string, slot: Slot, encoding: EncodingName): Promise<SessionTally | null> {
		const db = this.#db;
		const whole = !slot.tally || slot.dirty.length > MAX_RANGES || slot.dirty.some((range) => range.from === -Infinity && range.to === Infinity);
		const ranges = whole ? [] : slot.dirty;
		slot.dirty = [];
		slot.sessionStale = false;
		slot.queued = [];
		try {
			const read = await db.transaction('r', db.sessions, db.messages, async () => ({
				session: await db.sessions.get(sessionId),
				rows: whole ? await listActiveMessages(db, sessionId) : [],
				ranges: await Promise.all(ranges.map((range) => readSeqs(db, sessionId, range)))
			}));
			slot.session = factsOf(read.session);
			if (whole) slot.tally = new SessionTally(encoding, read.rows);
			else ranges.forEach((range, index) => slot.tally?.replaceRange(range.from, range.to, read.ranges[index]));
			return slot.tally;
		} catch (error) {
			if (whole) slot.tally = null;
			slot.dirty.push(...ranges);
			slot.sessionStale = true;
			throw error;
		} finally {
			const queued = slot.queued ?? [];
			slot.queued = null;
			for (const changes of queued) this.#apply(sessionId, slot, changes);
		}
	}

	#apply(sessionId: string, slot: Slot, changes: CommittedChanges): void {
		if (slot.queued) {
			slot.queued.push(changes);
			return;
		}
		if (changes.everything) {
			slot.tally = null;
			slot.sessionStale = true;
			return;
		}
		const session = changes.sessionRow(sessionId);
		if (session !== undefined) slot.session = factsOf(session);
		if (changes.sessionUnseen(sessionId)) slot.sessionStale = true;
		if (!slot.tally) return;
		for (const { seq, row } of changes.rowsOf(sessionId)) slot.tally.apply(seq, row);
		for (const range of changes.unseenSeqs(sessionId)) {
			// A whole session written elsewhere (deleted, imported, or many rows at once): read it whole.
			if (range.from === -Infinity && range.to === Infinity) slot.tally = null;
			else slot.dirty.push(range);
		}
	}
}

/** A seq range of a session by primary key, ends included: live and compacted rows alike. */
function readSeqs(db: PalimpsestDb, sessionId: string, range: SeqRange): Promise<MessageRow[]> {
	return db.messages.where('[session_id+seq]').between([sessionId, range.from], [sessionId, range.to], true, true).toArray();
}

const registry = new WeakMap<PalimpsestDb, SessionTallies>();

/** The tallies of `db`: made on first use, forgotten when the connection closes. */
export function sessionTallies(db: PalimpsestDb): SessionTallies {
	let tallies = registry.get(db);
	if (!tallies) {
		const made = new SessionTallies(db);
		registry.set(db, made);
		// A closed connection may miss commits until it reopens: start again from the database.
		const onClose = () => {
			db.on('close').unsubscribe(onClose);
			if (registry.get(db) === made) registry.delete(db);
			made.dispose();
		};
		db.on('close', onClose);
		tallies = made;
	}
	return tallies;
}
