import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { probeConnection } from './connection-loss';
import { PalimpsestDb } from './database';

let db: PalimpsestDb;
const restore: Array<() => void> = [];
beforeEach(() => {
	db = new PalimpsestDb(`loss-${crypto.randomUUID()}`);
	vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
	for (const undo of restore.splice(0)) undo();
	vi.restoreAllMocks();
	db.close();
	await db.delete();
});

/**
 * Drops `connection` the way Safari drops a background tab's: the object stays, but every
 * request made through it fails with UnknownError and no 'close' event fires.
 */
function loseConnection(connection: IDBDatabase): void {
	const lost = new DOMException('Connection to Indexed Database server lost. Refresh the page to try again', 'UnknownError');
	for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Array<Record<string, unknown>>) {
		for (const method of ['get', 'getAll', 'getAllKeys', 'getKey', 'openCursor', 'openKeyCursor', 'count', 'put', 'add', 'delete', 'clear']) {
			const original = proto[method] as ((...args: unknown[]) => unknown) | undefined;
			if (!original) continue;
			proto[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
				const store = 'objectStore' in this ? this.objectStore : this;
				if (store.transaction.db === connection) throw lost;
				return original.apply(this, args);
			};
			restore.push(() => (proto[method] = original));
		}
	}
}

describe('a connection the browser dropped', () => {
	it('is replaced on the next use after the one that met the loss', async () => {
		await db.settings.put({ key: 'theme', value: 'dark' });
		loseConnection(db.backendDB());
		await expect(db.settings.get('theme')).rejects.toMatchObject({ name: 'UnknownError' });
		expect(await db.settings.get('theme')).toEqual({ key: 'theme', value: 'dark' });
		await db.settings.put({ key: 'theme', value: 'light' });
		expect((await db.settings.get('theme'))?.value).toBe('light');
	});

	it('is found and replaced by a probe, so the user’s next action does not meet it', async () => {
		await db.settings.put({ key: 'theme', value: 'dark' });
		loseConnection(db.backendDB());
		expect(await probeConnection(db, 'settings')).toBe(true);
		expect(await db.settings.get('theme')).toEqual({ key: 'theme', value: 'dark' });
	});

	it('is not reopened when it was closed for good', async () => {
		await db.settings.count();
		db.close();
		expect(await probeConnection(db, 'settings')).toBe(false);
		expect(db.isOpen()).toBe(false);
	});
});
