import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PalimpsestDb, SCHEMA_V1 } from './database';
import { onDatabaseOutdated, onUpgradeBlocked, type DatabaseEvent } from './version-guard';

let name = '';
const stops: Array<() => void> = [];
afterEach(async () => {
	for (const stop of stops.splice(0)) stop();
	await Dexie.delete(name);
});

function fresh(): string {
	name = `guard-${crypto.randomUUID()}`;
	return name;
}

/** A plain IndexedDB open, as another tab with other code would make it. */
function rawOpen(dbName: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
	return new Promise((resolve, reject) => {
		const request = indexedDB.open(dbName, version);
		request.onupgradeneeded = () => upgrade?.(request.result);
		request.onsuccess = () => resolve(request.result);
		request.onerror = () => reject(request.error);
	});
}

describe('a database newer than this code', () => {
	it('is not opened, and is left exactly as the newer version wrote it', async () => {
		const dbName = fresh();
		const newer = await rawOpen(dbName, 1000, (db) => {
			db.createObjectStore('sessions', { keyPath: 'id' }).put({ id: 's1', title: 'from the future' });
			db.createObjectStore('future_things', { keyPath: 'id' });
		});
		newer.close();

		const db = new PalimpsestDb(dbName);
		await expect(db.open()).rejects.toMatchObject({ name: 'VersionError' });
		// Later queries do not find another way in either.
		await expect(db.sessions.count()).rejects.toThrow();

		const after = await rawOpen(dbName);
		expect(after.version).toBe(1000);
		expect([...after.objectStoreNames].sort()).toEqual(['future_things', 'sessions']);
		after.close();
	});
});

describe('an upgrade made by a newer tab', () => {
	it('closes this tab’s connection for good and says so, instead of reopening under the old code', async () => {
		const dbName = fresh();
		const db = new PalimpsestDb(dbName);
		await db.sessions.count();
		const heard: DatabaseEvent[] = [];
		stops.push(onDatabaseOutdated((event) => heard.push(event)));

		// The newer tab's upgrade is not kept waiting by this one.
		const newer = await rawOpen(dbName, 1000, (idb) => idb.createObjectStore('future_things', { keyPath: 'id' }));
		newer.close();

		expect(heard).toEqual([{ name: dbName, version: 1000 }]);
		expect(db.isOpen()).toBe(false);
		await expect(db.sessions.count()).rejects.toMatchObject({ name: 'DatabaseClosedError' });
		const after = await rawOpen(dbName);
		expect(after.version).toBe(1000);
		after.close();
	});

	it('leaves other connections alone: a deletion is still Dexie’s to handle', async () => {
		const dbName = fresh();
		const db = new PalimpsestDb(dbName);
		await db.sessions.count();
		const heard = vi.fn();
		stops.push(onDatabaseOutdated(heard));
		await Dexie.delete(dbName);
		expect(heard).not.toHaveBeenCalled();
	});
});

describe('an upgrade of this tab’s that another tab blocks', () => {
	it('is reported while it waits, and goes on by itself once the other tab lets go', async () => {
		const dbName = fresh();
		const v1 = new Dexie(dbName);
		v1.version(1).stores(SCHEMA_V1);
		await v1.table('sessions').add({ id: 's1', title: 'kept', session_key: 'k', created_at: 1, last_activity_at: 1 });
		v1.close();
		// An older tab's connection that ignores versionchange.
		const older = await rawOpen(dbName);
		const heard: DatabaseEvent[] = [];
		stops.push(onUpgradeBlocked((event) => heard.push(event)));

		const db = new PalimpsestDb(dbName);
		let opened = false;
		const opening = db.open().then(() => (opened = true));
		await vi.waitFor(() => expect(heard).toEqual([{ name: dbName, version: 10 }]));
		expect(opened).toBe(false);

		older.close();
		await opening;
		expect(db.verno).toBe(14);
		expect(await db.sessions.get('s1')).toMatchObject({ title: 'kept', archived: 0 });
		db.close();
	});
});
