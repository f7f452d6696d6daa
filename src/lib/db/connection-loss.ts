// A connection the browser dropped fails every request made through it: Safari does this to tabs
// left in the background ("Connection to Indexed Database server lost", with no 'close' event),
// Chromium closes every connection of an origin whose disk is full ("IO error … NO_SPACE").
// Reopening at once is what Dexie does, and on a full disk it is what loses data: Chromium then
// finds its store damaged and deletes it (seen in tests/e2e/storage-full-disk.spec.ts). So a lost
// connection is closed, uses fail fast meanwhile, and it is reopened in the background as soon as
// a small test write elsewhere (the origin's private file system) shows the disk has room again.
// probeConnection finds a loss before the user does (the app calls it when the tab comes back).
import { RangeSet, type Dexie, type DBCore, type DBCoreMutateResponse, type DBCoreTable, type Middleware } from 'dexie';

/** Whether an IndexedDB error says the connection itself is gone (not a bad request or a full quota). */
export function isConnectionLost(error: unknown): boolean {
	for (let e = error as { name?: string; message?: string; inner?: unknown } | undefined, depth = 0; e && depth < 3; e = e.inner as typeof e, depth++) {
		if (e.name === 'UnknownError') return true;
		if (e.name === 'InvalidStateError' && /clos/i.test(e.message ?? '')) return true;
	}
	return false;
}

const PROBE_FILE = 'palimpsest-space-probe';

function privateFiles(): Promise<FileSystemDirectoryHandle> | null {
	const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
	return typeof storage?.getDirectory === 'function' ? storage.getDirectory() : null;
}

/**
 * Whether the disk has room for `bytes` more: writes and removes a file in the origin's private
 * file system, which refuses cleanly (QuotaExceededError) when the disk is full. Null where there
 * is no such file system to try, and the caller goes ahead.
 */
export async function hasRoom(bytes = 256 * 1024): Promise<boolean | null> {
	let dir: FileSystemDirectoryHandle | undefined;
	try {
		dir = (await privateFiles()) ?? undefined;
	} catch {
		// No private file system here (a private window, say): the probe cannot tell.
		return null;
	}
	if (!dir) return null;
	try {
		const file = await dir.getFileHandle(PROBE_FILE, { create: true });
		if (typeof file.createWritable !== 'function') return null;
		const writable = await file.createWritable();
		try {
			await writable.write(new Uint8Array(bytes));
			await writable.close();
		} catch (error) {
			await writable.abort().catch(() => {});
			throw error;
		}
		return true;
	} catch {
		// Right after a full disk closed the database, the probe may fail otherwise for a while
		// (InvalidStateError in Chromium): no room either.
		return false;
	} finally {
		await dir?.removeEntry(PROBE_FILE).catch(() => {});
	}
}

/**
 * Tells every live query that anything may have changed, so each reads again without its cache:
 * the signal Dexie sends itself when a page comes back from the back/forward cache, with its
 * connections reopened. Queries that failed while the connection was lost show the data again.
 */
function requeryEverything(): void {
	if (typeof dispatchEvent !== 'function') return;
	dispatchEvent(new CustomEvent('x-storagemutated-1', { detail: { all: new RangeSet(-Infinity, [[]]) } }));
}

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

interface Lost {
	/** Resolves once the connection is open again, or the wait was given up. */
	reopened: Promise<boolean>;
	/** Set when the app closed the database for good meanwhile (left, deleted, upgraded elsewhere). */
	cancelled: boolean;
}

const lost = new WeakMap<Dexie, Lost>();
/** Why each suspended connection was lost, until it is open again. */
const reasons = new WeakMap<Dexie, unknown>();
/** Connections this module is closing now (their 'close' event is not the app's). */
const closing = new WeakSet<Dexie>();

async function stillExists(name: string): Promise<boolean> {
	const factory = typeof indexedDB === 'undefined' ? undefined : indexedDB;
	if (!factory?.databases) return true;
	try {
		return (await factory.databases()).some((info) => info.name === name);
	} catch {
		return true;
	}
}

/** Closes `db` for now and reopens it in the background once the disk has room. */
function suspend(db: Dexie, why: unknown): void {
	if (lost.has(db) || (db.hasBeenClosed() && !db.isOpen())) return;
	console.warn(`The connection to ${db.name} was lost; it is opened again once storage works.`, why);
	reasons.set(db, why);
	closing.add(db);
	// No automatic reopen on the next query: on a full disk that is what destroys the data.
	db.close({ disableAutoOpen: true });
	closing.delete(db);
	const state: Lost = { cancelled: false, reopened: Promise.resolve(false) };
	state.reopened = (async () => {
		for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
			await new Promise((resolve) => setTimeout(resolve, wait));
			if (state.cancelled) return false;
			// Room first: on a full disk, any request to the browser's IndexedDB (listing the databases
			// too) makes Chromium open its damaged store again, find it unreadable and delete it.
			if ((await hasRoom()) === false || state.cancelled) continue;
			// A database deleted meanwhile (its profile, in another tab) is not made again, empty.
			if (!(await stillExists(db.name))) return false;
			closing.add(db);
			try {
				await db.open();
				reasons.delete(db);
				requeryEverything();
				return true;
			} catch {
				// Still failing: try again later.
			} finally {
				closing.delete(db);
			}
		}
	})().finally(() => lost.delete(db));
	lost.set(db, state);
}

/**
 * The most telling error for a failed use of `db`: while its connection is lost, why it was lost
 * (a request of the transaction that met the loss only says it was aborted).
 */
export function storageCause(db: Dexie, error: unknown): unknown {
	return reasons.get(db) ?? error;
}

function dropIfLost(db: Dexie, error: unknown): void {
	if (isConnectionLost(error) && db.isOpen()) suspend(db, error);
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

function reopenAfterLoss(db: Dexie): Middleware<DBCore> {
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
 * Keeps `db` usable after the browser drops its connection: the middleware above, a watch on
 * the connection's own 'close' event (the browser closed it, not the app), and no reopening
 * after the app closed it for good.
 */
export function keepConnection(db: Dexie): void {
	db.use(reopenAfterLoss(db));
	// A close by the app (left, deleted, upgraded elsewhere) ends any wait to reopen.
	const close = db.close.bind(db);
	db.close = ((options?: { disableAutoOpen: boolean }) => {
		const state = lost.get(db);
		if (state && !closing.has(db)) state.cancelled = true;
		return close(options);
	}) as typeof db.close;
	// The private file system the space probe writes to is made now, while there is room for it.
	void privateFiles()?.catch(() => {});
	db.on(
		'ready',
		() => {
			// In place of Dexie's own handler, which would reopen at the next query.
			db.backendDB().onclose = () => {
				const why = new Error('The browser closed the connection.');
				suspend(db, why);
				// Chromium closes every connection of an origin whose disk is full, often before any
				// write says so: with no room on the disk, that is the reason every failure gives.
				void hasRoom().then((room) => {
					if (room === false && reasons.get(db) === why) reasons.set(db, new DOMException('The disk is full, so the browser closed the database.', 'QuotaExceededError'));
				});
			};
		},
		true
	);
}

/**
 * Reads one row to learn whether the connection still works; a lost one is replaced as soon as
 * storage lets it (waiting up to `waitMs`), so the user's next action does not meet the loss.
 * Never throws.
 */
export async function probeConnection(db: Dexie, table: string, waitMs = 3_000): Promise<boolean> {
	const read = () => db.table(table).limit(1).primaryKeys();
	try {
		await read();
		return true;
	} catch {
		const state = lost.get(db);
		if (!state) return false;
		const reopened = await Promise.race([state.reopened, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs))]);
		if (!reopened) return false;
		return read().then(
			() => true,
			() => false
		);
	}
}
