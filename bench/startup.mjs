// Start-up benchmark: the JavaScript the main thread loads before the Message box is ready
// (gzip), and the time from navigation to an interactive Message box with 1,000 stored
// sessions. Prints figures; asserts nothing. Run: npx vite build && node bench/startup.mjs
import { gzipSync } from 'node:zlib';
import { median, openBench } from './browser.mjs';

const SESSIONS = 1000;
const RUNS = 5;
const bench = await openBench();

try {
	// 1. JavaScript loaded by the page at start-up (workers excluded: they are not main thread):
	// what was requested before the Message box was ready, and what came after it (code loaded
	// in idle time or on a timer), until the network has been idle and the first maintenance
	// pass (3 s after start) has run.
	const context = await bench.browser.newContext({ serviceWorkers: 'block' });
	const page = await context.newPage();
	const scripts = [];
	page.on('response', async (response) => {
		const type = response.request().resourceType();
		if (type === 'script') scripts.push({ url: response.url(), body: await response.body().catch(() => Buffer.alloc(0)) });
	});
	await page.addInitScript(() => {
		new MutationObserver((_, observer) => {
			if (!document.querySelector('textarea[aria-label="Message"], [role="textbox"][aria-label="Message"]')) return;
			window.__messageBoxAt = performance.now();
			observer.disconnect();
		}).observe(document, { childList: true, subtree: true });
	});
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	await page.waitForLoadState('networkidle');
	await page.waitForFunction(() => performance.getEntriesByName('palimpsest:maintenance-pass').length > 0 || performance.now() > 8000, null, { polling: 250, timeout: 30_000 });
	await page.waitForLoadState('networkidle');
	const started = await page.evaluate(() =>
		Object.fromEntries(performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime < (window.__messageBoxAt ?? Infinity)]))
	);
	const sizes = (list) => ({
		files: list.length,
		raw: list.reduce((sum, s) => sum + s.body.length, 0) / 1024,
		gzip: list.reduce((sum, s) => sum + gzipSync(s.body, { level: 9 }).length, 0) / 1024
	});
	const before = sizes(scripts.filter((s) => started[s.url] !== false));
	const after = sizes(scripts.filter((s) => started[s.url] === false));
	const tokenizer = scripts.filter((s) => /o200k|cl100k|tokeniz/i.test(s.url));
	console.log(`Start-up JavaScript on the main thread, requested before the Message box was ready: ${before.files} files, ${before.raw.toFixed(1)} KB raw, ${before.gzip.toFixed(1)} KB gzip (goal < 150 KB)`);
	console.log(`  and loaded after it (idle-time preloads, the first maintenance pass): ${after.files} files, ${after.raw.toFixed(1)} KB raw, ${after.gzip.toFixed(1)} KB gzip`);
	console.log(`Tokenizer tables loaded by the page at start-up: ${tokenizer.length === 0 ? 'none' : tokenizer.map((s) => s.url).join(', ')}`);

	// 2. Seed 1,000 sessions through the app's own database, then time reloads.
	await page.evaluate(async (count) => {
		const open = indexedDB.open('palimpsest-default');
		const db = await new Promise((resolve, reject) => {
			open.onsuccess = () => resolve(open.result);
			open.onerror = () => reject(open.error);
		});
		const tx = db.transaction(['sessions', 'messages'], 'readwrite');
		const now = Date.now();
		for (let i = 0; i < count; i++) {
			const id = `bench-${i}`;
			tx.objectStore('sessions').put({
				id, title: `Benchmark session ${i}`, title_source: 'auto', session_key: `web:default:${id}`,
				created_at: now - i * 60000, last_activity_at: now - i * 60000, ended_at: null, end_reason: null,
				parent_session_id: null, parent_kind: null, archived: 0, pinned: i % 50 === 0 ? 1 : 0,
				profile: 'default', provider: 'offline', model: 'offline-mini', message_count: 2, token_estimate: 120, next_seq: 2,
				compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
			});
			for (let seq = 0; seq < 2; seq++) {
				tx.objectStore('messages').put({
					session_id: id, seq, id: `${id}-${seq}`, role: seq ? 'assistant' : 'user',
					content: `Message ${seq} of session ${i}: ${'lorem ipsum '.repeat(20)}`, status: 'complete',
					kind: 'message', active: 1, compacted_by: null, created_at: now
				});
			}
		}
		await new Promise((resolve, reject) => {
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		db.close();
	}, SESSIONS);

	const timings = [];
	for (let run = 0; run < RUNS; run++) {
		await page.goto(bench.url + '/');
		await page.getByRole('textbox', { name: 'Message' }).waitFor();
		await page.getByRole('link', { name: 'Benchmark session 0', exact: true }).waitFor();
		timings.push(await page.evaluate(() => performance.now()));
	}
	console.log(`Navigation to interactive Message box with ${SESSIONS} sessions listed: median ${median(timings).toFixed(0)} ms (runs: ${timings.map((t) => t.toFixed(0)).join(', ')})`);
	await context.close();
} finally {
	await bench.close();
}
