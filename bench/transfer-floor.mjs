// What export and import are measured against: the same rows read, and written, with bare
// IndexedDB in the page, in the app's own database. Each returns its time in milliseconds.
import { seedSessions } from './seed-sessions.mjs';

/** The rows bench/transfer.mjs exports and imports: sessions of `perSession` messages. */
export const seedSpec = (count, perSession) => ({
	count,
	perSession,
	filler: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5),
	tokens: 80
});

/**
 * The floor an import cannot beat: the rows written in one transaction (the profile's sessions
 * and messages are cleared first, untimed).
 */
export async function writeRaw(page, spec) {
	await page.evaluate(async () => {
		const db = await new Promise((resolve, reject) => {
			const open = indexedDB.open('palimpsest-default');
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const tx = db.transaction(['sessions', 'messages'], 'readwrite');
		tx.objectStore('sessions').clear();
		tx.objectStore('messages').clear();
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		db.close();
	});
	const started = performance.now();
	await seedSessions(page, spec);
	return performance.now() - started;
}

/**
 * The floor an export cannot beat: every session row, and every message row by session, read
 * in one transaction with all requests under way at once (the fastest way measured: one getAll
 * of the whole messages store, or chunks of it read one after the other, took two to three
 * times as long).
 */
export function readRaw(page) {
	return page.evaluate(async () => {
		const db = await new Promise((resolve, reject) => {
			const open = indexedDB.open('palimpsest-default');
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const started = performance.now();
		const tx = db.transaction(['sessions', 'messages'], 'readonly');
		const result = (request) =>
			new Promise((resolve, reject) => {
				request.onsuccess = () => resolve(request.result);
				request.onerror = () => reject(request.error);
			});
		const sessions = await result(tx.objectStore('sessions').getAll());
		const messages = tx.objectStore('messages');
		const lists = await Promise.all(sessions.map((row) => result(messages.getAll(IDBKeyRange.bound([row.id, -Infinity], [row.id, []])))));
		const ms = performance.now() - started;
		db.close();
		if (lists.length !== sessions.length) throw new Error('Some sessions were not read.');
		return ms;
	});
}
