// Main-thread long tasks (over 50 ms) in the built app while a 200k-token session is counted
// and compacted. The session is written straight into IndexedDB with no cached counts; opening
// it counts every message (in the context worker), and "Compact now" with the offline model
// plans and writes an extractive summary (in the worker) and commits. A PerformanceObserver
// for 'longtask' is registered before the page's own scripts run. With --profile, Chromium's
// sampling profiler runs too and each long task is followed by the functions that used its
// time (names are minified unless the app was built with --minify false).
// Prints figures; asserts nothing. Run: npx vite build && node bench/long-tasks.mjs [--profile]
import { buildBench } from './build-bench.mjs';
import { openBench, seedDatabase } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';
import { observeLongTasks, startProfile, stopProfile, topFunctions } from './profile.mjs';

const TOKENS = size(200_000, 20_000);
const PROFILE = process.argv.includes('--profile');
const ID = 'bench-long-tasks';
const TITLE = 'Long tasks benchmark session';

/** An init script, like observeLongTasks: what the meter shows. */
function meterProbe() {
	window.__meterTokens = () => {
		const text = document.querySelector('[aria-label="Context usage"]')?.textContent ?? '';
		const match = /([\d,]+) \/ [\d,]+ tokens/.exec(text);
		return match ? Number(match[1].replace(/,/g, '')) : null;
	};
}

/** Resolves once the page's main thread has had nothing to do for a moment (two idle callbacks). */
const settle = (page) => page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve, { timeout: 5000 }), { timeout: 5000 })));

const pageNow = (page) => page.evaluate(() => performance.now());

/** Waits until `predicate(arg)` returns a time (checked every frame) and returns that page time. */
async function when(page, predicate, arg) {
	const handle = await page.waitForFunction(predicate, arg, { timeout: 120_000, polling: 'raf' });
	return handle.jsonValue();
}

console.log(machine());
let summary;
const built = await buildBench({ browser: false });
const bench = await openBench().catch(async (error) => {
	await built.remove();
	throw error;
});
try {
	const node = await import(built.nodeEntry);
	const rows = node.storedRows(ID, node.conversationOf(TOKENS, node.rawCount, false));
	const session = node.seededSession(ID, TITLE, rows);

	const context = await bench.browser.newContext({ serviceWorkers: 'block' });
	await context.addInitScript(observeLongTasks);
	await context.addInitScript(meterProbe);
	const page = await context.newPage();
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	await seedDatabase(page, { sessions: [session], messages: rows });
	const chars = rows.reduce((sum, row) => sum + row.content.length, 0);
	console.log(`Seeded one session: ${rows.length} messages, ${(chars / 2 ** 20).toFixed(2)} MB of text, ${int(TOKENS)}+ tokens, no cached counts`);

	await page.goto(bench.url + '/');
	await page.getByRole('link', { name: TITLE }).waitFor();
	await settle(page);
	const phases = [{ name: 'app start (navigation to an idle page)', from: 0, to: await pageNow(page) }];
	const profile = PROFILE ? await startProfile(page) : null;

	const opening = await pageNow(page);
	await page.getByRole('link', { name: TITLE }).click();
	// The transcript opens with its latest messages (40) and a button for the earlier ones.
	const firstPage = Math.min(rows.length, 40);
	const shown = await when(page, (count) => ((document.querySelector('[role="log"]')?.getElementsByTagName('article').length ?? 0) >= count ? performance.now() : false), firstPage);
	const counted = await when(page, (least) => (window.__meterTokens() > least ? performance.now() : false), TOKENS * 0.9);
	await settle(page);
	const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
	phases.push({ name: 'open the session and count it', from: opening, to: await pageNow(page), notes: [`transcript shows the latest ${firstPage} of ${rows.length} messages at +${ms(shown - opening)} (the page then has ${int(elements)} elements)`, `meter shows the count at +${ms(counted - opening)}`] });

	const before = await page.evaluate(() => window.__meterTokens());
	const compacting = await pageNow(page);
	await page.getByRole('button', { name: 'Compact now' }).click();
	// A live collection of <section>s, not a selector over the whole (very large) document: the
	// check itself must not make long tasks.
	const marked = await when(page, () => ([...document.getElementsByTagName('section')].some((s) => s.getAttribute('aria-label') === 'Context compacted') ? performance.now() : false));
	// The kept tail is a fixed budget, so how far the count falls depends on the session's size.
	const recounted = await when(page, (most) => (window.__meterTokens() < most ? performance.now() : false), before);
	await settle(page);
	const result = await page.getByRole('status', { name: 'Compaction result' }).textContent();
	phases.push({ name: 'compact now', from: compacting, to: await pageNow(page), notes: [`marker "Context compacted" at +${ms(marked - compacting)}`, `meter shows the new count at +${ms(recounted - compacting)}`, `result: ${result}`] });

	const tasks = await page.evaluate(() => window.__longTasks);
	const during = tasks.filter((task) => phases.some((phase) => task.start >= phase.from && task.start < phase.to));
	summary = `${during.length} main-thread long task${during.length === 1 ? '' : 's'} over 50 ms while a ${int(TOKENS)}-token session is opened, counted and compacted${during.length ? `, longest ${ms(Math.max(...during.map((task) => task.duration)))}` : ''} (goal: none)`;
	const samples = profile ? await stopProfile(profile) : null;
	console.log(`Long tasks (> 50 ms) on the main thread, goal: none while counting and compacting${PROFILE ? ' (sampling profiler on: it adds some overhead)' : ''}`);
	for (const phase of phases) {
		const seen = tasks.filter((task) => task.start >= phase.from && task.start < phase.to);
		const longest = Math.max(0, ...seen.map((task) => task.duration));
		console.log(`  ${phase.name}: ${ms(phase.to - phase.from)}, ${seen.length} long task${seen.length === 1 ? '' : 's'}${seen.length ? `, longest ${ms(longest)}, ${ms(seen.reduce((sum, task) => sum + task.duration, 0))} in all` : ''}`);
		for (const note of phase.notes ?? []) console.log(`    ${note}`);
		for (const task of seen) {
			console.log(`    task at +${ms(task.start - phase.from)}: ${ms(task.duration)}`);
			if (samples) for (const line of topFunctions(samples, task.start, task.start + task.duration)) console.log(`      ${line}`);
		}
	}
	await context.close();
} finally {
	await bench.close();
	await built.remove();
}
headline(summary);
