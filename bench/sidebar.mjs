// Sidebar benchmark with 10,000 stored sessions (100,000 messages): time to the first rows of
// the list, rows in the page, and how long a search keystroke takes to update the list (title
// matches), then to add the sessions whose messages match. Prints figures; asserts nothing.
// Run: npx vite build && node bench/sidebar.mjs
import { median, openAppPage, openBench } from './browser.mjs';
import { headline, size } from './quick.mjs';
import { seedSessions } from './seed-sessions.mjs';

const SESSIONS = size(10_000, 1_000);
const MESSAGES_PER_SESSION = 10;
const RUNS = size(5, 1);
const FIRST_ROWS_GOAL_MS = 150;
const WORDS = ['river', 'canal', 'harbour', 'lighthouse', 'orchard', 'meadow', 'glacier', 'delta', 'estuary', 'quarry'];
let summary;
const bench = await openBench();
const nav = 'nav[aria-label="Sessions"]';

/** Sessions on ten topics; one session in a thousand mentions a word no title has. */
function seed(page) {
	return seedSessions(page, {
		count: SESSIONS, perSession: MESSAGES_PER_SESSION, idDigits: 5, pinnedEvery: 1000, topics: WORDS,
		filler: 'lorem ipsum dolor sit amet '.repeat(8), tokens: 60, rare: { every: 1000, at: 500, text: ' The zeppelinwerk archive has it.' }
	});
}

/** Records, in the page, when the first session link appears in the sidebar. */
function watchFirstRow() {
	new MutationObserver((_, observer) => {
		if (document.querySelector('nav[aria-label="Sessions"] li a')) {
			window.__firstRow = performance.now();
			observer.disconnect();
		}
	}).observe(document, { childList: true, subtree: true });
}

/**
 * Types one character into the search box and resolves to the milliseconds from the key press
 * to the next frame after the list changed.
 */
function timeKeystroke(page, key) {
	return page.evaluate(
		({ key, nav }) =>
			new Promise((resolve) => {
				const box = document.querySelector(`${nav} input[type="search"]`);
				const list = document.querySelector(`${nav} ul`);
				const observer = new MutationObserver(() => {
					observer.disconnect();
					requestAnimationFrame(() => resolve(performance.now() - started));
				});
				observer.observe(list, { childList: true, subtree: true, characterData: true });
				const started = performance.now();
				box.value += key;
				box.dispatchEvent(new InputEvent('input', { bubbles: true, data: key, inputType: 'insertText' }));
			}),
		{ key, nav }
	);
}

async function clearSearch(page) {
	const box = page.getByRole('searchbox', { name: 'Search sessions' });
	await box.fill('');
	await page.locator(`${nav} li a`).first().waitFor();
}

try {
	const { context, page } = await openAppPage(bench);
	const seeding = Date.now();
	await seed(page);
	console.log(`Seeded ${SESSIONS.toLocaleString('en')} sessions with ${(SESSIONS * MESSAGES_PER_SESSION).toLocaleString('en')} messages in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
	await page.addInitScript(watchFirstRow);

	// 1. First render: from navigation, and from the moment the app starts reading the list.
	const fromNavigation = [];
	const fromListStart = [];
	for (let run = 0; run < RUNS; run++) {
		await page.goto(bench.url + '/');
		await page.getByRole('link', { name: 'Session 0 on the river', exact: true }).waitFor();
		const timing = await page.evaluate(() => ({
			firstRow: window.__firstRow,
			list: performance.getEntriesByName('palimpsest:session-list-shown')[0]?.duration ?? NaN
		}));
		fromNavigation.push(timing.firstRow);
		fromListStart.push(timing.list);
	}
	const ms = (values) => `median ${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;
	console.log(`First rows of the list, from the app reading it: ${ms(fromListStart)} (goal < ${FIRST_ROWS_GOAL_MS} ms)`);
	summary = `first rows of the list with ${SESSIONS.toLocaleString('en')} sessions: median ${median(fromListStart).toFixed(0)} ms from the app reading it (goal < ${FIRST_ROWS_GOAL_MS} ms)`;
	console.log(`First rows of the list, from navigation: ${ms(fromNavigation)}`);

	// 2. Rows in the page: at the top, and after jumping to the end of the list.
	const count = () => page.evaluate((nav) => ({ rows: document.querySelectorAll(`${nav} li`).length, links: document.querySelectorAll(`${nav} li a`).length }), nav);
	const top = await count();
	// End goes to the last session the list knows: wait until it knows them all.
	await page.locator(`${nav} li[aria-setsize="${SESSIONS}"]`).first().waitFor({ timeout: 120_000 });
	await page.getByRole('link', { name: 'Session 0 on the river', exact: true }).focus();
	await page.keyboard.press('End');
	await page.getByRole('link', { name: `Session ${SESSIONS - 1} on the ${WORDS[(SESSIONS - 1) % WORDS.length]}`, exact: true }).waitFor();
	const bottom = await count();
	console.log(`Rows in the page with ${SESSIONS.toLocaleString('en')} sessions: ${top.rows} (${top.links} session links) at the top, ${bottom.rows} after End`);

	// 3. Search: keystroke to list update (title matches), typing a session number digit by digit.
	// Typing starts once the page is quiet: the maintenance pass a few seconds after start-up
	// reads every session and holds the main thread (its cost is printed separately).
	await page.reload();
	await page.locator(`${nav} li a`).first().waitFor();
	const longTasks = await page.evaluateHandle(() => {
		const seen = [];
		new PerformanceObserver((list) => seen.push(...list.getEntries().map((e) => ({ at: e.startTime, duration: e.duration })))).observe({ type: 'longtask', buffered: true });
		return seen;
	});
	await page.waitForFunction((seen) => performance.now() > 6000 && performance.now() - Math.max(0, ...seen.map((t) => t.at + t.duration)) > 2000, longTasks, { polling: 250, timeout: 60_000 });
	const startup = await longTasks.evaluate((seen) => seen.splice(0));
	console.log(`Main-thread long tasks in the first seconds after start-up (before typing): ${startup.length}${startup.length ? `, longest ${Math.max(...startup.map((t) => t.duration)).toFixed(0)} ms` : ''}`);
	// The maintenance pass a few seconds after start-up (ghost rows and leftover messages, empty
	// sessions, retention, auto-archive): its whole time, and the long tasks while it ran.
	const pass = await page.evaluate(() => performance.getEntriesByName('palimpsest:maintenance-pass')[0]?.toJSON() ?? null);
	if (pass) {
		const during = startup.filter((t) => t.at + t.duration > pass.startTime && t.at < pass.startTime + pass.duration).map((t) => t.duration);
		console.log(`Maintenance pass at start-up over ${SESSIONS.toLocaleString('en')} sessions: ${pass.duration.toFixed(0)} ms in all; main-thread long tasks meanwhile: ${during.length}${during.length ? `, longest ${Math.max(...during).toFixed(0)} ms` : ''}`);
	} else console.log('Maintenance pass at start-up: did not run');
	// As a user does: the search box takes focus (a click) before the first keystroke.
	await page.getByRole('searchbox', { name: 'Search sessions' }).focus();
	const keystrokes = [];
	for (const number of size(['9876', '5432', '1234', '8765', '4321'], ['987', '543'])) {
		for (const digit of `Session ${number}`) {
			if (digit === ' ' || Number.isNaN(Number(digit))) continue;
			keystrokes.push(await timeKeystroke(page, digit));
		}
		await clearSearch(page);
	}
	const tasks = (await longTasks.evaluate((seen) => seen.slice())).map((t) => t.duration);
	const [first, ...rest] = keystrokes;
	console.log(`Search keystroke to updated list (title matches), ${rest.length} keystrokes: ${ms(rest)}, slowest ${Math.max(...rest).toFixed(0)} ms`);
	console.log(`First keystroke right after the search box took focus (starts the search worker, opens the database there, reads every title): ${first.toFixed(0)} ms`);
	console.log(`Main-thread long tasks while typing: ${tasks.length}${tasks.length ? `, longest ${Math.max(...tasks).toFixed(0)} ms` : ''}`);

	// 4. A word only some messages hold: keystroke to the list showing every match.
	const content = [];
	for (let run = 0; run < RUNS; run++) {
		const box = page.getByRole('searchbox', { name: 'Search sessions' });
		const started = Date.now();
		await box.fill('zeppelinwerk');
		await page.locator(`${nav} li a`).nth(SESSIONS / 1000 - 1).waitFor();
		await page.getByRole('status').filter({ hasText: 'Searching messages' }).waitFor({ state: 'detached' });
		content.push(Date.now() - started);
		await clearSearch(page);
	}
	console.log(`Search by message content over ${(SESSIONS * MESSAGES_PER_SESSION).toLocaleString('en')} messages, to every match listed: ${ms(content)}`);
	await context.close();
} finally {
	await bench.close();
}
headline(summary);
