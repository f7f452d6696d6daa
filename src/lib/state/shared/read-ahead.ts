// Pages that open at once, the first time too: their code loads ahead (in idle time after
// start-up, when their link is pointed at, focused or pressed), and as it loads, each page's code
// says how the rows it shows first are read ahead of it.
import { preloadCode } from '$app/navigation';
import type { PalimpsestDb } from '../../db/database';

const readers = new Map<string, (db: PalimpsestDb) => unknown>();

/** Called by the code of the page at `path` as it loads: `read` reads its first rows ahead of it. */
export function readAheadFor(path: string, read: (db: PalimpsestDb) => unknown): void {
	readers.set(path, read);
}

/** Loads the code of the page at `path`, then reads its rows from `db` if it says how; a failure is left to the page's own load. */
export function loadAhead(path: string, db: PalimpsestDb): Promise<void> {
	return preloadCode(path).then(() => void readers.get(path)?.(db), () => {});
}
