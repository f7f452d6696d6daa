// Start-up benchmark: the JavaScript the main thread loads before the Message box is ready
// (gzip), and the time from navigation to an interactive Message box with 1,000 stored
// sessions. Prints figures; asserts nothing. Run: npx vite build && node bench/startup.mjs [--files]
// (--files lists each script loaded before the Message box, largest first)
import { gzipSync } from 'node:zlib';
import { median, openBench } from './browser.mjs';
import { headline, size } from './quick.mjs';
import { seedSessions } from './seed-sessions.mjs';

const SESSIONS = size(1000, 100);
const RUNS = size(5, 1);
const GZIP_GOAL_KB = 150;
let startupKb;
let interactiveMs;
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
	// A script missing from the page's own resource timeline was requested by a worker: off the
	// main thread, so it is counted apart.
	const before = sizes(scripts.filter((s) => started[s.url] === true));
	const after = sizes(scripts.filter((s) => started[s.url] === false));
	const inWorkers = sizes(scripts.filter((s) => started[s.url] === undefined));
	if (process.argv.includes('--files')) {
		for (const s of scripts.filter((s) => started[s.url] === true).sort((a, b) => b.body.length - a.body.length)) console.log(`  before: ${(gzipSync(s.body, { level: 9 }).length / 1024).toFixed(1)} KB gzip ${s.url.split('/').pop()}`);
	}
	const tokenizer = scripts.filter((s) => /o200k|cl100k|tokeniz/i.test(s.url));
	console.log(`Start-up JavaScript on the main thread, requested before the Message box was ready: ${before.files} files, ${before.raw.toFixed(1)} KB raw, ${before.gzip.toFixed(1)} KB gzip (goal < ${GZIP_GOAL_KB} KB)`);
	startupKb = before.gzip;
	console.log(`  and loaded after it (idle-time preloads, the first maintenance pass): ${after.files} files, ${after.raw.toFixed(1)} KB raw, ${after.gzip.toFixed(1)} KB gzip`);
	console.log(`  and loaded by workers, off the main thread (the token counter's tables, the search worker): ${inWorkers.files} files, ${inWorkers.raw.toFixed(1)} KB raw, ${inWorkers.gzip.toFixed(1)} KB gzip`);
	console.log(`Tokenizer tables loaded by the page at start-up: ${tokenizer.length === 0 ? 'none' : tokenizer.map((s) => s.url).join(', ')}`);

	// 2. Seed 1,000 sessions through the app's own database, then time reloads.
	await seedSessions(page, { count: SESSIONS, perSession: 2, pinnedEvery: 50, filler: 'lorem ipsum '.repeat(20), tokens: 60 });

	const timings = [];
	for (let run = 0; run < RUNS; run++) {
		await page.goto(bench.url + '/');
		await page.getByRole('textbox', { name: 'Message' }).waitFor();
		await page.getByRole('link', { name: 'Benchmark session 0', exact: true }).waitFor();
		timings.push(await page.evaluate(() => performance.now()));
	}
	interactiveMs = median(timings);
	console.log(`Navigation to interactive Message box with ${SESSIONS} sessions listed: median ${median(timings).toFixed(0)} ms (runs: ${timings.map((t) => t.toFixed(0)).join(', ')})`);
	await context.close();
} finally {
	await bench.close();
}
headline(`start-up JavaScript before the Message box is ready: ${startupKb.toFixed(1)} KB gzip (goal < ${GZIP_GOAL_KB} KB); Message box interactive after ${interactiveMs.toFixed(0)} ms with ${SESSIONS.toLocaleString('en')} sessions`);
