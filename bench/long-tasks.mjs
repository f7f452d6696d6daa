// Main-thread long tasks (over 50 ms) in the built app while 200k-token sessions are counted,
// compacted and opened from search results. Two sessions are written straight into IndexedDB
// with no cached counts. Opening the first reads its rows, draws its transcript and counts every
// message (in the context worker); "Compact now" with the offline model plans and writes an
// extractive summary (in the worker) and commits; "Show compacted messages" draws the hundreds of
// answers it took out under its marker (then Hide); then the sidebar's search box looks for words
// in both sessions' messages (the search worker scans them all) and the second session is opened
// from its results and counted. A PerformanceObserver for 'longtask' is registered before the
// page's own scripts run, and Chromium's trace gives each task's CPU time: on a busy machine a
// task also waits for a core, and its CPU time is what the page did. With --profile, Chromium's
// sampling profiler runs too and each long task is followed by the functions that used its time
// (names are minified unless the app was built with --minify false).
// Prints figures; asserts nothing. Run: npx vite build && node bench/long-tasks.mjs [--profile]
import { buildBench } from './build-bench.mjs';
import { openBench, seedDatabase } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';
import { observeLongTasks, startProfile, stopProfile, topFunctions } from './profile.mjs';
import { startTaskTrace, stopTaskTrace } from './trace-tasks.mjs';

const TOKENS = size(200_000, 20_000);
const PROFILE = process.argv.includes('--profile');
const LONG_MS = 50;
const FIRST = { id: 'bench-long-tasks', title: 'Long tasks benchmark session' };
const SEARCHED = { id: 'bench-long-tasks-searched', title: 'Searched benchmark session' };
/** A short session the search does not match: its link leaving the list shows the scan is done. */
const UNMATCHED = { id: 'bench-long-tasks-unmatched', title: 'Unmatched benchmark session' };
/** Words in both sessions' messages and in no title: the search worker scans every message for them. */
const QUERY = 'the fallback path';
/** The transcript opens with its latest messages (this many) and a button for the earlier ones. */
const FIRST_PAGE = 40;

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

/** When the transcript holds `count` messages. A live collection, not a selector over the whole (large) document: the check itself must not make long tasks. */
const transcriptHolds = (page, count) => when(page, (least) => ((document.querySelector('[role="log"]')?.getElementsByTagName('article').length ?? 0) >= least ? performance.now() : false), count);

/** When the meter shows more than `least` tokens. */
const meterAbove = (page, least) => when(page, (least) => (window.__meterTokens() > least ? performance.now() : false), least);

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

// Locators found with plain selectors and text, not by role: Playwright computes roles and
// accessible names in the page's main thread, and over a transcript of 40 answers that takes
// tens of milliseconds, which would count against the app.
const sessionLink = (page, title) => page.locator('nav[aria-label="Sessions"] a').filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) });
const button = (page, text) => page.locator('button').filter({ hasText: new RegExp(`^\\s*${text}\\s*$`), visible: true });

console.log(machine());
let summary;
const built = await buildBench({ browser: false });
const bench = await openBench().catch(async (error) => {
	await built.remove();
	throw error;
});
try {
	const node = await import(built.nodeEntry);
	const rows = node.storedRows(FIRST.id, node.conversationOf(TOKENS, node.rawCount, false));
	const session = node.seededSession(FIRST.id, FIRST.title, rows);
	const searchedRows = node.storedRows(SEARCHED.id, node.conversationOf(TOKENS, node.rawCount, false, 11));
	const searched = node.seededSession(SEARCHED.id, SEARCHED.title, searchedRows, Date.now() - 60_000);
	const unmatchedRows = node.storedRows(UNMATCHED.id, [{ id: `${UNMATCHED.id}-0`, role: 'user', content: 'Hello', status: 'complete', kind: 'message', created_at: Date.now() }]);
	const unmatched = node.seededSession(UNMATCHED.id, UNMATCHED.title, unmatchedRows, Date.now() - 120_000);

	const context = await bench.browser.newContext({ serviceWorkers: 'block' });
	await context.addInitScript(observeLongTasks);
	await context.addInitScript(meterProbe);
	const page = await context.newPage();
	await page.goto(bench.url + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	await seedDatabase(page, { sessions: [session, searched, unmatched], messages: [...rows, ...searchedRows, ...unmatchedRows] });
	const mb = (list) => (list.reduce((sum, row) => sum + row.content.length, 0) / 2 ** 20).toFixed(2);
	console.log(`Seeded two sessions of ${int(TOKENS)}+ tokens with no cached counts (and a short one): ${rows.length} messages (${mb(rows)} MB of text) and ${searchedRows.length} (${mb(searchedRows)} MB)`);

	await page.goto(bench.url + '/');
	await sessionLink(page, FIRST.title).waitFor();
	await settle(page);
	const phases = [{ name: 'app start (navigation to an idle page)', from: 0, to: await pageNow(page) }];
	const trace = await startTaskTrace(page);
	const profile = PROFILE ? await startProfile(page) : null;

	const opening = await pageNow(page);
	await sessionLink(page, FIRST.title).click();
	const firstPage = Math.min(rows.length, FIRST_PAGE);
	const shown = await transcriptHolds(page, firstPage);
	const counted = await meterAbove(page, TOKENS * 0.9);
	await settle(page);
	const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
	phases.push({ name: 'open the session and count it', from: opening, to: await pageNow(page), notes: [`transcript shows the latest ${firstPage} of ${rows.length} messages at +${ms(shown - opening)} (the page then has ${int(elements)} elements)`, `meter shows the count at +${ms(counted - opening)}`] });

	const before = await page.evaluate(() => window.__meterTokens());
	const compacting = await pageNow(page);
	await button(page, 'Compact now').click();
	// A live collection of <section>s, not a selector over the whole document (see transcriptHolds).
	const marked = await when(page, () => ([...document.getElementsByTagName('section')].some((s) => s.getAttribute('aria-label') === 'Context compacted') ? performance.now() : false));
	// The kept tail is a fixed budget, so how far the count falls depends on the session's size.
	const recounted = await when(page, (most) => (window.__meterTokens() < most ? performance.now() : false), before);
	await settle(page);
	const compacted = await pageNow(page);
	const result = await page.locator('[role="status"][aria-label="Compaction result"]').textContent();
	phases.push({ name: 'compact now', from: compacting, to: compacted, notes: [`marker "Context compacted" at +${ms(marked - compacting)}`, `meter shows the new count at +${ms(recounted - compacting)}`, `result: ${result}`] });

	// What the compaction took, drawn under its marker: hundreds of answers.
	const showing = await pageNow(page);
	await button(page, 'Show compacted messages').click();
	const [drawn, originals] = await when(page, () => {
		const region = document.querySelector('[aria-label="Compacted messages"]');
		const count = region?.getElementsByTagName('article').length ?? 0;
		return count && region.getAttribute('aria-busy') === 'false' ? [performance.now(), count] : false;
	});
	await settle(page);
	const hiding = await pageNow(page);
	await button(page, 'Hide compacted messages').click();
	const hidden = await when(page, () => (document.querySelector('[aria-label="Compacted messages"]') ? false : performance.now()));
	await settle(page);
	phases.push({ name: 'show the compacted messages, then hide them', from: showing, to: await pageNow(page), notes: [`${int(originals)} compacted messages on the page at +${ms(drawn - showing)}`, `hidden again ${ms(hidden - hiding)} after Hide`] });

	// The search box in use: titles match at once, the search worker scans every message, and its
	// matches follow the writes that opening a session makes (its counts are stored).
	const searching = await pageNow(page);
	await page.locator('input[aria-label="Search sessions"]').fill(QUERY);
	await sessionLink(page, UNMATCHED.title).waitFor({ state: 'detached' });
	const match = sessionLink(page, SEARCHED.title);
	await match.click();
	const found = await transcriptHolds(page, Math.min(searchedRows.length, FIRST_PAGE));
	const foundCounted = await meterAbove(page, TOKENS * 0.9);
	await settle(page);
	phases.push({ name: `search the sessions for "${QUERY}" and open a match`, from: searching, to: await pageNow(page), notes: [`transcript shows the latest messages at +${ms(found - searching)}`, `meter shows the count at +${ms(foundCounted - searching)}`] });

	const samples = profile ? await stopProfile(profile) : null;
	const traced = await stopTaskTrace(trace);
	const tasks = await page.evaluate(() => window.__longTasks);
	const within = (list, phase) => list.filter((task) => task.start >= phase.from && task.start < phase.to);
	const during = phases.flatMap((phase) => within(tasks, phase));
	// The app-start phase ran before tracing began: its tasks' CPU time is not known.
	const busy = phases.slice(1).flatMap((phase) => within(traced, phase));
	const cpuLong = busy.filter((task) => task.cpu > LONG_MS);
	const mostCpu = Math.max(0, ...busy.map((task) => task.cpu));
	summary =
		`${plural(during.length, 'main-thread long task')} over ${LONG_MS} ms while a ${int(TOKENS)}-token session is opened, counted, compacted and its compacted messages shown and hidden, and another is opened from search results` +
		`${during.length ? `, longest ${ms(Math.max(...during.map((task) => task.duration)))}` : ''}; ${cpuLong.length} used over ${LONG_MS} ms of CPU time (most in one task: ${ms(mostCpu)}) (goal: none)`;
	console.log(`Long tasks (> ${LONG_MS} ms) on the main thread, goal: none${PROFILE ? ' (sampling profiler on: it adds some overhead)' : ''}; "CPU" is the time the main thread ran, the rest of a task it waited for a core`);
	for (const [index, phase] of phases.entries()) {
		const seen = within(tasks, phase);
		const longest = Math.max(0, ...seen.map((task) => task.duration));
		const phaseCpu = index ? within(traced, phase) : [];
		const cpu = index ? `; ${phaseCpu.filter((task) => task.cpu > LONG_MS).length} over ${LONG_MS} ms of CPU, most in one task ${ms(Math.max(0, ...phaseCpu.map((task) => task.cpu)))}` : '';
		console.log(`  ${phase.name}: ${ms(phase.to - phase.from)}, ${plural(seen.length, 'long task')}${seen.length ? `, longest ${ms(longest)}, ${ms(seen.reduce((sum, task) => sum + task.duration, 0))} in all` : ''}${cpu}`);
		for (const note of phase.notes ?? []) console.log(`    ${note}`);
		for (const task of seen) {
			// The traced task that the observer saw (their clocks agree to a fraction of a millisecond).
			const match = phaseCpu.find((traced) => Math.abs(traced.start - task.start) < 2);
			console.log(`    task at +${ms(task.start - phase.from)}: ${ms(task.duration)}${match ? ` (CPU ${ms(match.cpu)})` : ''}`);
			if (samples) for (const line of topFunctions(samples, task.start, task.start + task.duration)) console.log(`      ${line}`);
		}
	}
	await context.close();
} finally {
	await bench.close();
	await built.remove();
}
headline(summary);
