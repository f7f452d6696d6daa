// Storage faults for the browser tests: a page whose IndexedDB writes fail as a full disk makes
// them fail, what the chat does when storage is full, a page whose connection the browser drops,
// and plain IndexedDB access from a page of the same origin that does not run the app (another
// tab with other code).
import { expect, type Locator, type Page } from '@playwright/test';
import { messageText, newSession } from './helpers';

export const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Fills storage (`fill`) while `answer` streams a long text: the stream goes on in memory (the
 * text keeps growing on screen), then ends failed with every word, saying it is not saved.
 * Returns the text shown.
 */
export async function fillWhileStreaming(answer: Locator, fill: () => Promise<unknown>): Promise<string> {
	await fill();
	const atFill = (await messageText(answer)).length;
	await expect.poll(async () => (await messageText(answer)).length).toBeGreaterThan(atFill + 1000);
	await expect(answer).toHaveAttribute('data-status', 'error', { timeout: 30_000 });
	const shown = await messageText(answer);
	expect(words(shown)).toBeGreaterThan(2900);
	await expect(answer).toContainText('This answer is not saved: storage is full');
	return shown;
}

/** Sends `text` in a new session when storage cannot take it: returns the Message box (still holding it) and the alert that says why. */
export async function sendWhenStorageFull(page: Page, text: string): Promise<{ box: Locator; alert: Locator }> {
	await newSession(page);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill(text);
	await box.press('Enter');
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('storage is full');
	return { box, alert };
}

type DiskWindow = Window & { __disk: { full: boolean } };

/**
 * From the next navigation on, `page`'s writes (add and put: what storing needs; deletes, which
 * free space, still work) throw QuotaExceededError while the disk is full. Workers are not
 * affected. Starts full when `startFull`.
 */
export async function installFullDisk(page: Page, startFull = false): Promise<void> {
	await page.addInitScript((full) => {
		const w = window as unknown as DiskWindow;
		w.__disk = { full };
		for (const method of ['add', 'put'] as const) {
			const original = IDBObjectStore.prototype[method];
			IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: Parameters<typeof original>) {
				if (w.__disk.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
				return original.apply(this, args);
			};
		}
	}, startFull);
}

export async function setDiskFull(page: Page, full: boolean): Promise<void> {
	await page.evaluate((value) => ((window as unknown as DiskWindow).__disk.full = value), full);
}

type LossWindow = Window & { __connections: IDBDatabase[]; __lost: Set<IDBDatabase> };

/**
 * Lets a test drop `page`'s connections the way Safari drops a background tab's ("Connection to
 * Indexed Database server lost"): the connection object stays, every request through it fails
 * with UnknownError, and no 'close' event fires. Call `loseConnections` to drop them.
 */
export async function installConnectionLoss(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const w = window as unknown as LossWindow;
		w.__connections = [];
		w.__lost = new Set();
		const open = IDBFactory.prototype.open;
		IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<typeof open>) {
			const request = open.apply(this, args);
			request.addEventListener('success', () => w.__connections.push(request.result));
			return request;
		};
		const methods = ['get', 'getAll', 'getAllKeys', 'getKey', 'openCursor', 'openKeyCursor', 'count', 'put', 'add', 'delete', 'clear'];
		for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Array<Record<string, (...args: unknown[]) => unknown>>) {
			for (const method of methods) {
				const original = proto[method];
				if (!original) continue;
				proto[method] = function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
					const store = 'objectStore' in this ? this.objectStore : this;
					if (w.__lost.has(store.transaction.db)) {
						throw new DOMException('Connection to Indexed Database server lost. Refresh the page to try again', 'UnknownError');
					}
					return original.apply(this, args);
				};
			}
		}
	});
}

/** Drops every connection `page` has open to the database `name`. */
export async function loseConnections(page: Page, name: string): Promise<number> {
	return page.evaluate((dbName) => {
		const w = window as unknown as LossWindow;
		const dropped = w.__connections.filter((c) => c.name === dbName);
		for (const c of dropped) w.__lost.add(c);
		return dropped.length;
	}, name);
}

/** Tells the page it was hidden (a background tab), or shown again. */
export async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
	await page.evaluate((value) => {
		Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
		Object.defineProperty(document, 'hidden', { configurable: true, get: () => value === 'hidden' });
		document.dispatchEvent(new Event('visibilitychange'));
	}, state);
}

/** A same-origin page that does not run the app (a static file), for plain IndexedDB work. */
export async function openPlainPage(page: Page): Promise<void> {
	await page.goto('/manifest.webmanifest');
}

/** The rows of a store as plain IndexedDB sees them (opening at whatever version the database has). */
export function readStore(page: Page, dbName: string, store: string): Promise<{ version: number; rows: unknown[] }> {
	return page.evaluate(
		([name, storeName]) =>
			new Promise<{ version: number; rows: unknown[] }>((resolve, reject) => {
				const request = indexedDB.open(name);
				request.onerror = () => reject(request.error);
				request.onsuccess = () => {
					const db = request.result;
					const get = db.transaction(storeName, 'readonly').objectStore(storeName).getAll();
					get.onsuccess = () => {
						db.close();
						resolve({ version: db.version, rows: get.result });
					};
					get.onerror = () => reject(get.error);
				};
			}),
		[dbName, store] as const
	);
}

/**
 * What a tab with newer code does: opens `name` at `version`, adding a store of its own, then
 * closes. Resolves to 'upgraded', or 'blocked' when some connection kept it waiting for 5 s.
 */
export function upgradeAsNewerCode(page: Page, name: string, version: number): Promise<'upgraded' | 'blocked'> {
	return page.evaluate(
		([dbName, v]) =>
			new Promise<'upgraded' | 'blocked'>((resolve, reject) => {
				const request = indexedDB.open(dbName, v);
				const timer = setTimeout(() => resolve('blocked'), 5_000);
				request.onupgradeneeded = () => request.result.createObjectStore('future_things', { keyPath: 'id' });
				request.onsuccess = () => {
					clearTimeout(timer);
					request.result.close();
					resolve('upgraded');
				};
				request.onerror = () => reject(request.error);
			}),
		[name, version] as const
	);
}

/**
 * What a tab with the first version's code leaves: `name` at version 1 of the schema (Dexie's
 * version 1, native version 10) holding `sessions`, and a connection it keeps open without
 * listening for version changes, so any upgrade waits for it (`releaseOldConnection` lets go).
 */
export function holdVersion1Database(page: Page, name: string, sessions: Record<string, unknown>[]): Promise<void> {
	return page.evaluate(
		([dbName, rows]) =>
			new Promise<void>((resolve, reject) => {
				const request = indexedDB.open(dbName, 10);
				request.onupgradeneeded = () => {
					const db = request.result;
					const store = db.createObjectStore('sessions', { keyPath: 'id' });
					for (const index of ['session_key', 'last_activity_at', 'parent_session_id']) store.createIndex(index, index);
					db.createObjectStore('messages', { keyPath: ['session_id', 'seq'] }).createIndex('id', 'id');
					db.createObjectStore('settings', { keyPath: 'key' });
					for (const row of rows) store.put(row);
				};
				request.onsuccess = () => {
					(window as unknown as { __held: IDBDatabase }).__held = request.result;
					resolve();
				};
				request.onerror = () => reject(request.error);
			}),
		[name, sessions] as const
	);
}

export async function releaseOldConnection(page: Page): Promise<void> {
	await page.evaluate(() => (window as unknown as { __held: IDBDatabase }).__held.close());
}

/** From the next navigation on, opening `name` at a version fails as a damaged database does in Chromium. */
export async function damageDatabase(page: Page, name: string): Promise<void> {
	await page.addInitScript((dbName) => {
		const open = IDBFactory.prototype.open;
		IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<typeof open>) {
			if (args[0] === dbName && args[1] !== undefined) {
				throw new DOMException('Internal error opening backing store for indexedDB.open.', 'UnknownError');
			}
			return open.apply(this, args);
		};
	}, name);
}
