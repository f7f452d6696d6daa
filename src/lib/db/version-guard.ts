// Keeps a tab from using a database under code older than the database. Dexie, left alone,
// opens a newer database anyway (after a VersionError it retries without a version) and, when
// a newer tab upgrades, closes the connection only to reopen it silently on the next query,
// under this tab's old code. Here a newer database fails the open with VersionError, and an
// upgrade from another tab closes this tab's connection for good and tells the app, which asks
// the user to reload. A blocked upgrade of this tab's own is reported the same way.
import Dexie, { type DexieOptions } from 'dexie';

const events = new EventTarget();

export interface DatabaseEvent {
	/** The database's name. */
	name: string;
	/** The version another connection upgrades to, or that keeps this tab's upgrade waiting. */
	version: number;
}

/** The native IndexedDB version this code reads and writes (Dexie stores its version × 10). */
export function knownVersion(db: Dexie): number {
	return Math.round(db.verno * 10);
}

function listen(type: string, listener: (event: DatabaseEvent) => void): () => void {
	const handler = (event: Event) => listener((event as CustomEvent<DatabaseEvent>).detail);
	events.addEventListener(type, handler);
	return () => events.removeEventListener(type, handler);
}

/** Calls `listener` when another tab upgrades a database this tab had open (this tab runs older code). */
export function onDatabaseOutdated(listener: (event: DatabaseEvent) => void): () => void {
	return listen('outdated', listener);
}

/** Calls `listener` when this tab's upgrade waits for another tab to close the database. */
export function onUpgradeBlocked(listener: (event: DatabaseEvent) => void): () => void {
	return listen('blocked', listener);
}

/**
 * The IndexedDB factory a guarded Dexie database uses: the given one (the global by default),
 * except that an open without a version (Dexie's retry after a VersionError) asks again for the
 * version first asked for, so a newer database fails to open instead of being used, or patched,
 * by older code.
 */
export function factoryFor(
	base: IDBFactory | undefined = Dexie.dependencies.indexedDB,
	onUpgrade: (oldVersion: number) => void = () => {}
): IDBFactory | undefined {
	if (!base) return undefined;
	const asked = new Map<string, number>();
	return new Proxy(base, {
		get(target, property) {
			if (property === 'open') {
				return (name: string, version?: number) => {
					if (version !== undefined) asked.set(name, version);
					const request = target.open(name, version ?? asked.get(name));
					request.addEventListener('upgradeneeded', (event) => onUpgrade(event.oldVersion));
					return request;
				};
			}
			const value = Reflect.get(target, property, target);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

/** Dexie options with that factory; `onUpgrade` hears of each upgrade (oldVersion 0: created). */
export function guardedOptions(options: DexieOptions = {}, onUpgrade?: (oldVersion: number) => void): DexieOptions {
	const factory = factoryFor((options.indexedDB as IDBFactory | undefined) ?? Dexie.dependencies.indexedDB, onUpgrade);
	return factory ? { ...options, indexedDB: factory } : options;
}

/**
 * Closes `db` for good when another connection upgrades it past this code's version, and
 * reports blocked upgrades. With `onDeletion: 'close'` a deletion closes it for good too, so no
 * later read (a worker's, say) creates the deleted database again, empty; otherwise deletions
 * are left to Dexie, which reopens on the next use.
 */
export function guardVersion(db: Dexie, onDeletion: 'close' | 'reopen' = 'reopen'): void {
	db.on('versionchange', (event) => {
		if (!event.newVersion) {
			if (onDeletion === 'reopen') return;
			db.close({ disableAutoOpen: true });
			return false;
		}
		if (event.newVersion <= knownVersion(db)) return;
		db.close({ disableAutoOpen: true });
		events.dispatchEvent(new CustomEvent('outdated', { detail: { name: db.name, version: event.newVersion } }));
		// Dexie runs newer listeners first; false keeps its own from allowing a reopen.
		return false;
	});
	db.on('blocked', (event) => {
		if (!event.newVersion || event.newVersion < event.oldVersion) return;
		events.dispatchEvent(new CustomEvent('blocked', { detail: { name: db.name, version: event.oldVersion } }));
	});
}
