// The rows of the sessions the sidebar shows: only those ids are read, and a live query reads
// them again when one of them changes, here or in another tab.
import type { PalimpsestDb } from '../../db/database';
import type { SessionRow } from '../../db/schema';
import { readSessionRows } from '../../db/session-order';
import { watch } from '../../db/watch';

/** A snapshot by id: replaced whole on each read, never changed in place. */
function byId(rows: readonly SessionRow[]): ReadonlyMap<string, SessionRow> {
	return new Map(rows.map((row) => [row.id, row]));
}

export class SessionWindow {
	/** The rows read for the ids shown, by id; a row not read yet is absent. */
	rows = $state.raw(byId([]));
	#db: PalimpsestDb;
	#key = '';
	#stop: (() => void) | null = null;

	constructor(db: PalimpsestDb) {
		this.#db = db;
	}

	/** Reads and follows these rows (nothing new if the ids are the same as before). */
	show(ids: readonly string[]): void {
		const key = ids.join('\n');
		if (key === this.#key) return;
		this.#key = key;
		this.#stop?.();
		const wanted = [...ids];
		// Rows already read stay on screen until the new read lands, so scrolling does not flash.
		this.#stop = watch(
			() => readSessionRows(this.#db, wanted),
			(rows) => (this.rows = byId(rows))
		);
	}

	/** Rows already read elsewhere (the first screen), shown until `show` reads its own. */
	prime(rows: readonly SessionRow[]): void {
		if (!this.rows.size) this.rows = byId(rows);
	}

	stop(): void {
		this.#stop?.();
		this.#stop = null;
		this.#key = '';
	}
}
