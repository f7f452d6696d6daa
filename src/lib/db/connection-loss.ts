// A connection the browser dropped (Safari does this to tabs left in the background: "Connection
// to Indexed Database server lost") fails every request made through it, and Dexie reopens only
// after a 'close' event or a refused transaction. This middleware closes such a connection as
// soon as one request reports the loss, so the next use opens a fresh one; probeConnection finds
// a loss before the user does (the app calls it when the tab comes back).
import type Dexie from 'dexie';
import type { DBCore, DBCoreMutateResponse, DBCoreTable, Middleware } from 'dexie';

/** Whether an IndexedDB error says the connection itself is gone (not a bad request or a full disk). */
export function isConnectionLost(error: unknown): boolean {
	for (let e = error as { name?: string; message?: string; inner?: unknown } | undefined, depth = 0; e && depth < 3; e = e.inner as typeof e, depth++) {
		if (e.name === 'UnknownError') return true;
		if (e.name === 'InvalidStateError' && /clos/i.test(e.message ?? '')) return true;
	}
	return false;
}

function dropIfLost(db: Dexie, error: unknown): void {
	// A database closed for good (deleted, or upgraded by newer code) stays closed.
	if (!isConnectionLost(error) || !db.isOpen() || db.hasBeenClosed()) return;
	console.warn(`The connection to ${db.name} was lost; it reopens on the next use.`, error);
	db.close({ disableAutoOpen: false });
}

function watchTable(db: Dexie, table: DBCoreTable): DBCoreTable {
	const check = <T>(promise: Promise<T>): Promise<T> =>
		promise.catch((error: unknown) => {
			dropIfLost(db, error);
			throw error;
		});
	return {
		...table,
		get: (req) => check(table.get(req)),
		getMany: (req) => check(table.getMany(req)),
		query: (req) => check(table.query(req)),
		openCursor: (req) => check(table.openCursor(req)),
		count: (req) => check(table.count(req)),
		mutate: (req) =>
			check(table.mutate(req)).then((res: DBCoreMutateResponse) => {
				// Failed writes of a bulk operation come back as failures, not as a rejection.
				if (res.numFailures) dropIfLost(db, Object.values(res.failures)[0]);
				return res;
			})
	};
}

export function reopenAfterLoss(db: Dexie): Middleware<DBCore> {
	return {
		stack: 'dbcore',
		name: 'reopen-after-loss',
		create: (down) => ({
			...down,
			table: (name) => watchTable(db, down.table(name)),
			transaction(stores, mode, options) {
				const tx = down.transaction(stores, mode, options);
				// A loss can also surface as the whole transaction aborting.
				if (tx instanceof EventTarget) tx.addEventListener('abort', () => dropIfLost(db, (tx as IDBTransaction).error));
				return tx;
			}
		})
	};
}

/**
 * Reads one row to learn whether the connection still works; a lost one is replaced by a fresh
 * one at once (one retry), so the user's next action does not meet the loss. Never throws.
 */
export async function probeConnection(db: Dexie, table: string): Promise<boolean> {
	const read = () => db.table(table).limit(1).primaryKeys();
	try {
		await read();
		return true;
	} catch (error) {
		if (!isConnectionLost(error)) return false;
		return read().then(
			() => true,
			() => false
		);
	}
}
