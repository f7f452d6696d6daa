// Export and import benchmark: 1,000 sessions with 100,000 messages, exported as JSON and
// Markdown from Settings and imported into a fresh profile, through the built app in Chromium.
// Prints the time of each, the file size, the peak memory of the browser's processes above
// what they used before, and the longest task on the page's main thread. Asserts nothing.
// Run: npx vite build && node bench/transfer.mjs
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBench } from './browser.mjs';
import { headline, size } from './quick.mjs';
import { seedSessions } from './seed-sessions.mjs';

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

let exportSeconds = NaN;
let importSeconds;
const bench = await openBench();
const dir = await mkdtemp(join(tmpdir(), 'palimpsest-bench-'));
try {
	const context = await bench.browser.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
	const page = await context.newPage();
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	const seedStarted = performance.now();
	await seedSessions(page, { count: SESSIONS, perSession: PER_SESSION, filler: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5), tokens: 80 });
	const total = SESSIONS * PER_SESSION;
	// The floor an import cannot beat: the same rows written with the bare IndexedDB API.
	console.log(`Seeded ${SESSIONS.toLocaleString('en')} sessions with ${total.toLocaleString('en')} messages with bare IndexedDB in one transaction: ${((performance.now() - seedStarted) / 1000).toFixed(2)} s`);

	await page.goto(bench.url + '/settings');
	await page.getByRole('button', { name: 'Export', exact: true }).waitFor();
	const status = page.getByRole('status', { name: 'Transfer status' });

	let jsonPath = '';
	for (const kind of ['JSON', 'Markdown']) {
		await page.getByRole('radio', { name: kind }).check();
		await watchLongTasks(page);
		const { ms, peakMb, result } = await measure(async () => {
			const download = page.waitForEvent('download', { timeout: 300_000 });
			await page.getByRole('button', { name: 'Export', exact: true }).click();
			const file = await download;
			const path = join(dir, file.suggestedFilename());
			await file.saveAs(path);
			await status.filter({ hasText: 'Exported' }).waitFor({ timeout: 300_000 });
			return path;
		});
		if (kind === 'JSON') {
			jsonPath = result;
			exportSeconds = ms / 1000;
		}
		const size = (await stat(result)).size / 2 ** 20;
		console.log(`Export ${kind}: ${(ms / 1000).toFixed(2)} s, ${size.toFixed(1)} MB file, peak browser memory +${peakMb.toFixed(0)} MB, longest main-thread task ${(await longestTask(page)).toFixed(0)} ms`);
	}

	await page.getByRole('button', { name: 'New profile' }).click();
	await page.getByRole('textbox', { name: 'Profile name' }).fill('Bench import');
	await page.getByRole('button', { name: 'Create profile' }).click();
	await page.getByRole('dialog', { name: 'Switch to “Bench import” now?' }).getByRole('button', { name: 'Switch now' }).click();
	await page.getByText('This tab uses “Bench import”').waitFor();
	await watchLongTasks(page);
	const phases = new Set();
	const { ms, peakMb } = await measure(async () => {
		const chooser = page.waitForEvent('filechooser');
		await page.getByRole('button', { name: 'Import', exact: true }).click();
		await (await chooser).setFiles(jsonPath);
		const done = status.filter({ hasText: /^(Imported|Import refused|Import failed)/ });
		while (!(await done.count())) {
			const text = await status.textContent().catch(() => null);
			if (text) phases.add(text.replace(/[\d,]+ of [\d,]+|\d+ %/, '…').trim());
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		return done.textContent();
	});
	console.log(`Import JSON into a fresh profile: ${(ms / 1000).toFixed(2)} s, peak browser memory +${peakMb.toFixed(0)} MB, longest main-thread task ${(await longestTask(page)).toFixed(0)} ms`);
	console.log(`  outcome: ${await status.textContent()}`);
	console.log(`  progress shown: ${[...phases].join(' | ')}`);
	importSeconds = ms / 1000;
	await context.close();
} finally {
	await rm(dir, { recursive: true, force: true });
	await bench.close();
}
const total = (SESSIONS * PER_SESSION).toLocaleString('en');
headline(`${SESSIONS.toLocaleString('en')} sessions with ${total} messages: JSON export ${exportSeconds.toFixed(2)} s (goal < ${EXPORT_GOAL_S} s), import ${importSeconds.toFixed(2)} s (goal < ${IMPORT_GOAL_S} s)`);
