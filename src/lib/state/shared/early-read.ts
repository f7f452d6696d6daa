// The rows a page shows first, read before it opens (a pointer over its link, the link taking
// focus, idle time after start-up) and kept until a write to their table, here or in another
// tab: the page then draws them in its first frame, and its live query takes over from there.
import type { PalimpsestDb } from '../../db/database';
import { onTablesChanged } from '../../db/watch';

/** The performance mark made each time a page's rows are read ahead (`<table>` its table). */
export const READ_AHEAD_MARK = 'palimpsest:read-ahead <table>';

interface Entry<T> {
	db: PalimpsestDb;
	rows?: T;
	reading: Promise<void>;
	stop: () => void;
}

export class EarlyRead<T> {
	#entry: Entry<T> | null = null;
	readonly #table: string;
	readonly #read: (db: PalimpsestDb) => Promise<T>;

	/** `read` reads the rows of `table` (and of no other table) from a profile's database. */
	constructor(table: string, read: (db: PalimpsestDb) => Promise<T>) {
		this.#table = table;
		this.#read = read;
	}

	/** Reads the rows of `db`, unless they are read or being read already; resolves once read. */
	start(db: PalimpsestDb): Promise<void> {
		if (this.#entry?.db === db) return this.#entry.reading;
		this.#forget();
		// Listening before the read starts: a write that lands while it runs makes its rows old.
		const entry: Entry<T> = { db, stop: onTablesChanged(db, [this.#table], () => this.#forget(entry)), reading: Promise.resolve() };
		this.#entry = entry;
		entry.reading = this.#read(db).then(
			(rows) => {
				entry.rows = rows;
				performance.mark(READ_AHEAD_MARK.replace('<table>', this.#table));
			},
			() => this.#forget(entry)
		);
		return entry.reading;
	}

	/** The rows of `db` once the read under way (if any) ends; undefined without one, or once a write made them old. */
	async whenRead(db: PalimpsestDb): Promise<T | undefined> {
		const entry = this.#entry;
		if (entry?.db !== db) return undefined;
		await entry.reading;
		return this.rows(db);
	}

	/** The rows of `db` when they are read and no write came since; else undefined. */
	rows(db: PalimpsestDb): T | undefined {
		return this.#entry?.db === db ? this.#entry.rows : undefined;
	}

	#forget(entry = this.#entry): void {
		if (!entry || this.#entry !== entry) return;
		entry.stop();
		this.#entry = null;
	}
}

/**
 * Starts a page's live query (`start` returns its stop): at once, or, when the page shows rows
 * read ahead (`shown`), once the frame that draws them is painted: reading them all again would
 * only compete with that frame.
 */
export function followAfterPaint(shown: boolean, start: () => () => void): () => void {
	if (!shown) return start();
	let stop: (() => void) | null = null;
	let timer = 0;
	// A task posted from the frame's animation callbacks runs once that frame is painted.
	const frame = requestAnimationFrame(() => (timer = window.setTimeout(() => (stop = start()))));
	return () => {
		cancelAnimationFrame(frame);
		clearTimeout(timer);
		stop?.();
	};
}
