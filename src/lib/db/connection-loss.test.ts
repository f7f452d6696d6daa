import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { probeConnection, storageCause } from './connection-loss';
import { isQuotaError } from './storage-errors';
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

/** The origin's private file system, as the space probe sees it: its writes fail while `full()`. */
function stubDisk(full: () => boolean): void {
	const dir = {
		getFileHandle: async () => ({
			createWritable: async () => ({
				write: async () => {
					if (full()) throw new DOMException('The operation failed because it would cause the application to exceed its storage quota.', 'QuotaExceededError');
				},
				close: async () => {},
				abort: async () => {}
			})
		}),
		removeEntry: async () => {}
	};
	vi.stubGlobal('navigator', { storage: { getDirectory: async () => dir } });
	restore.push(() => vi.unstubAllGlobals());
}

describe('a connection the browser dropped', () => {
	it('is replaced by a fresh one, without a reload: the next uses work', async () => {
		await db.settings.put({ key: 'theme', value: 'dark' });
		loseConnection(db.backendDB());
		await expect(db.settings.get('theme')).rejects.toMatchObject({ name: 'UnknownError' });
		await vi.waitFor(() => expect(db.isOpen()).toBe(true));
		expect(await db.settings.get('theme')).toEqual({ key: 'theme', value: 'dark' });
		await db.settings.put({ key: 'theme', value: 'light' });
		expect((await db.settings.get('theme'))?.value).toBe('light');
	});

	it('is not reopened while the disk is full (reopening then is what makes Chromium delete the data), and is once there is room', async () => {
		let full = true;
		stubDisk(() => full);
		await db.settings.put({ key: 'theme', value: 'dark' });
		loseConnection(db.backendDB());
		await expect(db.settings.get('theme')).rejects.toMatchObject({ name: 'UnknownError' });
		// Meanwhile uses fail at once instead of opening the database again.
		await expect(db.settings.get('theme')).rejects.toMatchObject({ name: 'DatabaseClosedError' });
		await new Promise((r) => setTimeout(r, 400));
		expect(db.isOpen()).toBe(false);
		full = false;
		await vi.waitFor(() => expect(db.isOpen()).toBe(true), { timeout: 3_000 });
		expect(await db.settings.get('theme')).toEqual({ key: 'theme', value: 'dark' });
	});

	it('asks the browser nothing about its databases while the disk is full (on a full disk, Chromium answers by deleting its damaged store)', async () => {
		let full = true;
		stubDisk(() => full);
		const listed = vi.spyOn(indexedDB, 'databases');
		await db.settings.put({ key: 'theme', value: 'dark' });
		loseConnection(db.backendDB());
		await expect(db.settings.get('theme')).rejects.toMatchObject({ name: 'UnknownError' });
		await new Promise((r) => setTimeout(r, 400));
		expect(listed).not.toHaveBeenCalled();
		full = false;
		await vi.waitFor(() => expect(db.isOpen()).toBe(true), { timeout: 3_000 });
		expect(listed).toHaveBeenCalled();
	});

	it('closed by the browser on a full disk gives the full disk as the reason of every failure meanwhile', async () => {
		stubDisk(() => true);
		await db.settings.put({ key: 'theme', value: 'dark' });
		// As Chromium does when the disk fills: the connection's own 'close' event, before any write failed.
		const connection = db.backendDB();
		connection.onclose?.call(connection, new Event('close'));
		const failure = await db.settings.put({ key: 'theme', value: 'light' }).catch((error: unknown) => error);
		await vi.waitFor(() => expect(isQuotaError(storageCause(db, failure))).toBe(true));
		expect(db.isOpen()).toBe(false);
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
