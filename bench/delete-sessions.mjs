// Bulk-delete benchmark: 1,000 sessions holding 100,000 messages (each answer with the record of
// its request, the sessions sharing 20 request frames) deleted through the app
// ("Select", "Select all", "Delete selected") against the same deletion written with raw
// IndexedDB (one strictly durable transaction, a key-range delete per session), in the same
// browser, alternating runs. Prints figures; asserts nothing.
// Run: npx vite build && node bench/delete-sessions.mjs (RUNS=n for more runs than 3)
import { median, openBench } from './browser.mjs';
import { headline, size } from './quick.mjs';
import { seedSessions } from './seed-sessions.mjs';

const SESSIONS = size(1000, 50);
const MESSAGES_PER_SESSION = size(100, 10);
const RUNS = Number(process.env.RUNS ?? size(3, 1));
const GOAL_MS = 1500;
const RATIO_GOAL = 1.3;
const MEASURE = 'palimpsest:delete-sessions';
const FRAMES = 20;

let summary;
const bench = await openBench();

/** Writes the sessions and their messages with raw IndexedDB into the app's database. */
function seed(page) {
	return seedSessions(page, { count: SESSIONS, perSession: MESSAGES_PER_SESSION, frames: FRAMES });
}

async function countRows(page) {
	return page.evaluate(async () => {
		const db = await new Promise((resolve, reject) => {
			const open = indexedDB.open('palimpsest-default');
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const count = (store, range) =>
			new Promise((resolve) => {
				const request = db.transaction(store).objectStore(store).count(range);
				request.onsuccess = () => resolve(request.result);
			});
		const frames = IDBKeyRange.bound('request-frame:', 'request-frame:\uffff');
		const result = { sessions: await count('sessions'), messages: await count('messages'), frames: await count('settings', frames) };
		db.close();
		return result;
	});
}

/** The app's path: the user selects every session and deletes them in one operation. */
async function deleteThroughApp(page) {
	await page.goto(bench.url + '/');
	const links = page.getByRole('navigation', { name: 'Sessions' }).getByRole('listitem').getByRole('link');
	// The list is virtualized: only the rows on screen exist, and Select all takes the rest.
	await links.first().waitFor();
	// Let the start-up maintenance pass (3 s after start) finish, so it does not share the measurement.
	await page.waitForFunction(() => performance.getEntriesByName('palimpsest:maintenance-pass').length > 0, null, { polling: 250, timeout: 120_000 });
	await page.evaluate((name) => performance.clearMeasures(name), MEASURE);
	// Select (above the list) enters selection mode; one box, then Select all.
	const nav = page.getByRole('navigation', { name: 'Sessions' });
	await nav.getByRole('button', { name: 'Select', exact: true }).click();
	await nav.getByRole('checkbox', { name: 'Select' }).first().check();
	await page.getByRole('button', { name: 'Select all' }).click();
	await page.getByRole('button', { name: 'Delete selected' }).click();
	const confirm = page.getByRole('dialog', { name: `Delete these ${SESSIONS} sessions?` }).getByRole('button', { name: 'Delete' });
	const clicked = await page.evaluate(() => performance.now());
	await confirm.click();
	// A benchmark measures, however slow the machine: a busy one took minutes here.
	await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, MEASURE, { timeout: 900_000, polling: 250 });
	await links.first().waitFor({ state: 'detached', timeout: 900_000 });
	const [{ duration }] = await page.evaluate((name) => performance.getEntriesByName(name).map((e) => ({ duration: e.duration })), MEASURE);
	const shown = (await page.evaluate(() => performance.now())) - clicked;
	return { duration, shown };
}

/** The same deletion by hand: one strict transaction, a key-range delete per session, a receipt. */
function deleteRaw(page) {
	return page.evaluate(async (count) => {
		const db = await new Promise((resolve, reject) => {
			const open = indexedDB.open('palimpsest-default');
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const ids = Array.from({ length: count }, (_, i) => `bench-${i}`);
		const started = performance.now();
		const tx = db.transaction(['sessions', 'messages', 'receipts'], 'readwrite', { durability: 'strict' });
		const sessions = tx.objectStore('sessions');
		const messages = tx.objectStore('messages');
		for (const id of ids) {
			messages.delete(IDBKeyRange.bound([id, -Infinity], [id, [[]]]));
			sessions.delete(id);
		}
		tx.objectStore('receipts').put({ op_id: `raw-${started}`, reason: 'delete', session_id: ids[0], session_ids: ids, detached_ids: [], at: Date.now() });
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		const duration = performance.now() - started;
		db.close();
		return duration;
	}, SESSIONS);
}

try {
	const context = await bench.browser.newContext({ serviceWorkers: 'block' });
	const page = await context.newPage();
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	const app = [];
	const shown = [];
	const raw = [];
	for (let run = 0; run < RUNS; run++) {
		await seed(page);
		const before = await countRows(page);
		const result = await deleteThroughApp(page);
		const after = await countRows(page);
		if (after.sessions || after.messages || after.frames) throw new Error(`The app left ${after.sessions} sessions, ${after.messages} messages and ${after.frames} request frames`);
		app.push(result.duration);
		shown.push(result.shown);

		await seed(page);
		raw.push(await deleteRaw(page));
		const left = await countRows(page);
		if (left.sessions || left.messages) throw new Error('The raw deletion left rows behind');
		console.log(`run ${run + 1}: ${before.sessions} sessions, ${before.messages} messages; app ${result.duration.toFixed(0)} ms (list empty after ${result.shown.toFixed(0)} ms), raw ${raw.at(-1).toFixed(0)} ms`);
	}
	const appMedian = median(app);
	const rawMedian = median(raw);
	console.log(`Bulk delete of ${SESSIONS} sessions / ${SESSIONS * MESSAGES_PER_SESSION} messages through the app: median ${appMedian.toFixed(0)} ms (goal < ${GOAL_MS} ms); list empty on screen after ${median(shown).toFixed(0)} ms`);
	console.log(`Same deletion with raw IndexedDB: median ${rawMedian.toFixed(0)} ms; app / raw = ${(appMedian / rawMedian).toFixed(2)}× (goal ≤ ${RATIO_GOAL}×)`);
	summary = `deleting ${SESSIONS.toLocaleString('en')} sessions with ${(SESSIONS * MESSAGES_PER_SESSION).toLocaleString('en')} messages through the app: ${appMedian.toFixed(0)} ms (goal < ${GOAL_MS} ms), ${(appMedian / rawMedian).toFixed(2)}× raw IndexedDB (goal ≤ ${RATIO_GOAL}×)`;
	await context.close();
} finally {
	await bench.close();
}
headline(summary);
