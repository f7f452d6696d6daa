// Opening a long-compacted session: one with 10,000 compacted rows (active = 0) and 50 live ones
// against one of 50 rows and no compacted ones. In the built app, the time from navigation to
// /s/<id> until the transcript shows the session's last message; in Chromium's IndexedDB alone,
// the read of the live rows through [session_id+active+seq] and, for scale, of every row.
// Prints figures; asserts nothing. Run: npx vite build && node bench/open-session.mjs
import { buildBench } from './build-bench.mjs';
import { median, openBench, seedDatabase } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const COMPACTED = size(10_000, 500);
const LIVE = 50;
const RUNS = size(5, 1);
const GOAL_MS = 1_000;
const IDS = { compacted: 'bench-compacted', plain: 'bench-plain' };

/** Init script: notes when the transcript's last element first holds the session's last words. */
function watchLastWords() {
	const id = new URL(location.href).pathname.split('/').pop();
	if (!id) return;
	new MutationObserver((_, observer) => {
		if (document.querySelector('[role="log"]')?.lastElementChild?.textContent?.includes(`Last words of ${id}.`)) {
			window.__lastShownAt = performance.now();
			observer.disconnect();
		}
	}).observe(document, { childList: true, subtree: true, characterData: true });
}

console.log(machine());
let summary;
const built = await buildBench();
try {
	const node = await import(built.nodeEntry);
	const harness = await openBench({ root: built.browserDir });
	try {
		const page = await harness.browser.newPage();
		await page.goto(harness.url + '/');
		await page.waitForFunction(() => 'bench' in window);
		const read = await page.evaluate(({ compacted, live, runs }) => window.bench.liveRead(compacted, live, runs), { compacted: COMPACTED, live: LIVE, runs: RUNS });
		console.log(`Reading a session's rows from Chromium's IndexedDB (median of ${RUNS}):`);
		console.log(`  live rows of a session with ${int(COMPACTED)} compacted rows, through [session_id+active+seq]: ${ms(read.compactedLive.ms)} for ${read.compactedLive.rows} rows (all ${int(read.compactedAll.rows)} of its rows: ${ms(read.compactedAll.ms)})`);
		console.log(`  live rows of a session of ${LIVE} rows and no compacted ones: ${ms(read.plainLive.ms)} for ${read.plainLive.rows} rows`);
	} finally {
		await harness.close();
	}

	console.log(`\nOpening a session in the built app: navigation to /s/<id> until the transcript shows its last message (median of ${RUNS}, runs alternating, service worker off)`);
	const app = await openBench();
	try {
		const context = await app.browser.newContext({ serviceWorkers: 'block' });
		await context.addInitScript(watchLastWords);
		const page = await context.newPage();
		await page.goto(app.url + '/');
		await page.getByRole('textbox', { name: 'Message' }).waitFor();
		const lastWords = (rows, id) => rows.map((row, i) => (i === rows.length - 1 ? { ...row, content: `${row.content}\n\nLast words of ${id}.` } : row));
		const live = node.conversationRows(LIVE, node.rawCount, 11);
		const compacted = node.compactedSession(IDS.compacted, `Benchmark: ${int(COMPACTED)} compacted rows`, node.conversationRows(COMPACTED), lastWords(live, IDS.compacted));
		const plainRows = node.storedRows(IDS.plain, lastWords(live, IDS.plain));
		const plain = node.seededSession(IDS.plain, `Benchmark: ${LIVE} rows`, plainRows);
		await seedDatabase(page, { sessions: [compacted.session, plain], messages: [...compacted.rows, ...plainRows] });
		const times = { [IDS.compacted]: [], [IDS.plain]: [] };
		for (let run = 0; run < RUNS; run++) {
			for (const id of Object.keys(times)) {
				await page.goto(`${app.url}/s/${id}`);
				times[id].push(await (await page.waitForFunction(() => window.__lastShownAt, undefined, { timeout: 60_000 })).jsonValue());
			}
		}
		const line = (id, label) => `  ${label}: ${ms(median(times[id]))} (runs: ${times[id].map((t) => t.toFixed(0)).join(', ')} ms)`;
		console.log(line(IDS.compacted, `${int(COMPACTED)} compacted rows and ${LIVE} live ones (a summary and ${LIVE - 1} messages)`));
		console.log(line(IDS.plain, `${LIVE} rows, none compacted`));
		summary = `opening a session with ${int(COMPACTED)} compacted rows to its last message on screen: ${ms(median(times[IDS.compacted]))}, against ${ms(median(times[IDS.plain]))} for one of ${LIVE} rows (goal: under ${ms(GOAL_MS)}, and no slower for its compacted rows)`;
		await context.close();
	} finally {
		await app.close();
	}
} finally {
	await built.remove();
}
headline(summary);
