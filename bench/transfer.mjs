// Export and import benchmark: 1,000 sessions with 100,000 messages, exported as JSON and
// Markdown from Settings and imported into a fresh profile, through the built app in Chromium.
// Prints the time of each, the file size, the peak memory of the browser's processes above
// what they used before, and the longest task on the page's main thread, beside the floor each
// is measured against in the same run (the same rows read, and written, with bare IndexedDB,
// before and after, as the machine's load drifts). The browser keeps its profile on disk, as a
// user's does: IndexedDB in a private context lives in memory, where large writes cost a few
// times more. Asserts nothing.
// Run: npx vite build && node bench/transfer.mjs
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDiskProfile } from './browser.mjs';
import { headline, size } from './quick.mjs';
import { readRaw, seedSpec, writeRaw } from './transfer-floor.mjs';

const SESSIONS = size(1000, 50);
const PER_SESSION = size(100, 10);
const EXPORT_GOAL_S = 2;
const IMPORT_GOAL_S = 5;

/** Resident memory (bytes) of every process below this one: the browser and its helpers. */
async function browserRss() {
	const children = new Map();
	for (const entry of await readdir('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const status = await readFile(`/proc/${entry}/status`, 'utf8');
			const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
			const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
			children.set(Number(entry), { ppid, rss });
		} catch {
			// The process ended while we looked.
		}
	}
	let total = 0;
	const below = [process.pid];
	while (below.length) {
		const parent = below.pop();
		for (const [pid, info] of children) {
			if (info.ppid === parent) {
				total += info.rss;
				below.push(pid);
			}
		}
	}
	return total;
}

/** Runs `work`, sampling browser memory every 100 ms; returns its time and peak memory increase. */
async function measure(work) {
	const baseline = await browserRss();
	let peak = baseline;
	let sampling = true;
	const sampler = (async () => {
		while (sampling) {
			peak = Math.max(peak, await browserRss());
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	})();
	const started = performance.now();
	const result = await work();
	const ms = performance.now() - started;
	sampling = false;
	await sampler;
	return { ms, peakMb: (peak - baseline) / 2 ** 20, result };
}

function watchLongTasks(page) {
	return page.evaluate(() => {
		window.__longest = 0;
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
		}).observe({ type: 'longtask' });
	});
}

const longestTask = (page) => page.evaluate(() => window.__longest);

/**
 * Records every text the transfer status shows, from inside the page (polling it from here
 * would load the main thread and add its interval to the figure), and resolves when one of them
 * matches `final`.
 */
function statusUntil(page, final) {
	return page.evaluate((source) => {
		const pattern = new RegExp(source);
		window.__statusTexts = [];
		return new Promise((resolve) => {
			const observer = new MutationObserver(() => {
				const text = document.querySelector('[aria-label="Transfer status"]')?.textContent?.trim();
				if (text && window.__statusTexts.at(-1) !== text) window.__statusTexts.push(text);
				if (text && pattern.test(text)) {
					observer.disconnect();
					resolve(text);
				}
			});
			observer.observe(document.body, { subtree: true, childList: true, characterData: true });
		});
	}, final.source);
}

/** The kinds of status shown, numbers left out ("Importing: writing messages… …"). */
async function statusPhases(page) {
	const texts = await page.evaluate(() => window.__statusTexts);
	return [...new Set(texts.map((text) => text.replace(/[\d,]+ of [\d,]+|\d+ %/, '…')))];
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const count = (n) => n.toLocaleString('en');

let exportMs;
let importMs;
const rawWrites = [];
const rawReads = [];
const spec = seedSpec(SESSIONS, PER_SESSION);
const rows = `${count(SESSIONS)} sessions with ${count(SESSIONS * PER_SESSION)} messages`;
console.log(`${rows}; load average at start ${loadavg().map((n) => n.toFixed(2)).join(', ')} on ${availableParallelism()} cores`);
const bench = await openDiskProfile({ acceptDownloads: true, serviceWorkers: 'block' });
const dir = await mkdtemp(join(tmpdir(), 'palimpsest-bench-'));
try {
	const page = await bench.context.newPage();
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	rawWrites.push(await writeRaw(page, spec));
	console.log(`Raw write (the floor for import): ${rows} written with bare IndexedDB in one transaction: ${seconds(rawWrites[0])}`);

	await page.goto(bench.url + '/settings');
	await page.getByRole('button', { name: 'Export', exact: true }).waitFor();
	// The maintenance pass a few seconds after start-up reads every session: let it end first.
	await page
		.waitForFunction(() => performance.getEntriesByName('palimpsest:maintenance-pass').length > 0, null, { polling: 250, timeout: 60_000 })
		.catch(() => console.log('(The maintenance pass at start-up did not end within a minute; exporting anyway.)'));
	rawReads.push(await readRaw(page));

	let jsonPath = '';
	for (const kind of ['JSON', 'Markdown']) {
		await page.getByRole('radio', { name: kind }).check();
		await watchLongTasks(page);
		const { ms, peakMb, result } = await measure(async () => {
			const download = page.waitForEvent('download', { timeout: 600_000 });
			const exported = statusUntil(page, /^Export/);
			await page.getByRole('button', { name: 'Export', exact: true }).click();
			const file = await download;
			// Until the file is whole in the downloads folder, and the status says so.
			await file.path();
			await exported;
			return file;
		});
		const path = join(dir, result.suggestedFilename());
		await result.saveAs(path);
		if (kind === 'JSON') {
			jsonPath = path;
			exportMs = ms;
		}
		const size = (await stat(path)).size / 2 ** 20;
		console.log(`Export ${kind}: ${seconds(ms)}, ${size.toFixed(1)} MB file, peak browser memory +${peakMb.toFixed(0)} MB, longest main-thread task ${(await longestTask(page)).toFixed(0)} ms`);
	}
	rawReads.push(await readRaw(page));
	console.log(`Raw read (the floor for export): ${rows} read with bare IndexedDB (one transaction, a getAll per session): ${rawReads.map(seconds).join(' before the exports, ')} after`);

	await page.getByRole('button', { name: 'New profile' }).click();
	await page.getByRole('textbox', { name: 'Profile name' }).fill('Bench import');
	await page.getByRole('button', { name: 'Create profile' }).click();
	await page.getByRole('dialog', { name: 'Switch to “Bench import” now?' }).getByRole('button', { name: 'Switch now' }).click();
	await page.getByText('This tab uses “Bench import”').waitFor();
	await watchLongTasks(page);
	const { ms, peakMb, result: outcome } = await measure(async () => {
		const chooser = page.waitForEvent('filechooser');
		const done = statusUntil(page, /^(Imported|Nothing new|Import refused|Import failed|Import stopped)/);
		await page.getByRole('button', { name: 'Import', exact: true }).click();
		await (await chooser).setFiles(jsonPath);
		return done;
	});
	importMs = ms;
	console.log(`Import JSON into a fresh profile: ${seconds(ms)}, peak browser memory +${peakMb.toFixed(0)} MB, longest main-thread task ${(await longestTask(page)).toFixed(0)} ms`);
	console.log(`  outcome: ${outcome}`);
	console.log(`  progress shown: ${(await statusPhases(page)).join(' | ')}`);
	rawWrites.push(await writeRaw(page, spec));
	console.log(`Raw write again, after the import: ${seconds(rawWrites[1])}`);
} finally {
	await rm(dir, { recursive: true, force: true });
	await bench.close();
}
// Against the mean of the floor measured before and after, as the machine's load drifts.
const times = (ms, floor) => `${(ms / mean(floor)).toFixed(2)}× bare IndexedDB`;
headline(
	`${rows}: JSON export ${seconds(exportMs)} (goal < ${EXPORT_GOAL_S} s; ${times(exportMs, rawReads)} reading), import ${seconds(importMs)} (goal < ${IMPORT_GOAL_S} s; ${times(importMs, rawWrites)} writing)`
);
