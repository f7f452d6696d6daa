// Plugin benchmark. (1) What isolation costs per hook dispatch in Chromium: pre_llm_call (a
// collector) and post_compaction (an observer, timed until the bus has settled) through 1, 5
// and 20 plugins, each running isolated (its own sandboxed frame and worker, as in the app)
// against the same plugins in the page, through the app's plugin host and hook bus.
// (2) Start-up of the built app with 5 isolated plugins against none: navigation to an
// interactive Message box, and to all 5 plugins Loaded. (3) One plugin's pre_llm_call while
// another floods the app with near-megabyte writes, against the same call without the flood.
// Prints figures; asserts nothing. Run: npx vite build && node bench/plugin-dispatch.mjs
// (RUNS=n dispatches per figure, 200 by default; RELOADS=n reloads per start-up figure, 8 by
// default; FLOOD_RUNS=n calls per flood figure, 40 by default; PART=dispatch, PART=startup or
// PART=flood for one part only)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../src/server/serve.mjs';
import { median, openBench, seedDatabase, withHarnessPage } from './browser.mjs';
import { machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const COUNTS = [1, 5, 20];
const WARMUP = size(200, 5);
const RUNS = Number(process.env.RUNS ?? size(200, 10));
const RELOADS = Number(process.env.RELOADS ?? size(8, 1));
/** Rounds of the extra 20-plugin figures (after idle, long session). */
const FEW_RUNS = size(40, 5);
const IDLE_GAP_MS = 20;
const ROUND_TRIP_RUNS = size(60, 5);
const LONG_HISTORY = 100;
/** `dispatch` or `startup` runs only that part. */
const PART = process.env.PART ?? 'all';
const STARTUP_PLUGINS = 5;
const ADDED_GOAL_MS = 2;
const STARTUP_GOAL_MS = 100;
const FLOOD_RUNS = Number(process.env.FLOOD_RUNS ?? size(40, 5));
const FLOOD_GAP_MS = 20;
const FLOOD_GOAL_MS = 50;

/**
 * Plugin `n`: a memory-style plugin. Its pre_llm_call returns about 200 characters of context;
 * its post_compaction notes the session (the trivial work an observer usually does).
 */
function pluginSource(n) {
	const note = `Conventions kept by bench plugin ${n}: tabs for indentation, snake_case payload fields, one concept per file, tests that can fail, and comments that say why rather than what.`;
	return `export const manifest = { name: 'Bench plugin ${n}', version: '1.0.0' };
const compacted = new Set();
export function register(ctx) {
	ctx.register_hook('pre_llm_call', ({ session_id, conversation_history }) => ({
		context: ${JSON.stringify(note)} + (compacted.has(session_id) ? ' (after a compaction, ' : ' (') + conversation_history.length + ' messages)'
	}));
	ctx.register_hook('post_compaction', ({ session_id }) => {
		compacted.add(session_id);
	});
	ctx.register_command('bench${n}', () => 'bench plugin ${n}', { description: 'Answers with its name' });
}
`;
}

const sources = Array.from({ length: Math.max(...COUNTS, STARTUP_PLUGINS) }, (_, i) => pluginSource(i + 1));

function percentile(values, p) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

const stats = (values) => ({ median: median(values), p95: percentile(values, 0.95), mean: values.reduce((a, b) => a + b, 0) / values.length });

function formatDispatch(count, samples, when = '') {
	const inPage = stats(samples['in-page']);
	const isolated = stats(samples.isolated);
	const added = isolated.median - inPage.median;
	// A dispatch in the page can take less than one step of the timer: then the means say it.
	const ratio = inPage.median > 0 ? `${(isolated.median / inPage.median).toFixed(1)}× (medians)` : `${(isolated.mean / inPage.mean).toFixed(1)}× (means)`;
	const goal = count === Math.max(...COUNTS) ? (added < ADDED_GOAL_MS ? ' (within the goal)' : ' (OVER the goal)') : '';
	return [
		`    ${count} plugin${count === 1 ? '' : 's'}${when}: in the page median ${ms(inPage.median)}, p95 ${ms(inPage.p95)}, mean ${ms(inPage.mean)}; isolated median ${ms(isolated.median)}, p95 ${ms(isolated.p95)}, mean ${ms(isolated.mean)}`,
		`      added by isolation: ${ms(added)} per dispatch (median), ${ms(isolated.p95 - inPage.p95)} (p95), ${ms(isolated.mean - inPage.mean)} (mean); ratio ${ratio}${goal}`
	].join('\n');
}

console.log(machine());
/** The headline: what isolation adds to a pre_llm_call at the most plugins. */
let addedAtMost = NaN;
/** What the plugin broker adds to a pre_llm_call against the page holding each channel: per plugin, and through all at once. */
let brokerAdds = { one: NaN, most: NaN };

/** The last figure: what another plugin's flood adds to one plugin's pre_llm_call (median, p95). */
let floodAdds = { median: NaN, p95: NaN };

// 1. Dispatch cost, in the benchmark harness page.
/** The flood's figures, printed last (measured in the same harness page as the dispatch figures). */
let floodLines = [];
if (PART !== 'startup') {
	await withHarnessPage(async (page, browser) => {
		if (PART !== 'flood') {
			await measureDispatchCost(page, browser);
			await measureRoundTrips(page, await sandboxOutOfProcess(page, browser));
		}
		floodLines = await measureFlood(page);
	});
}

async function measureDispatchCost(page, browser) {
	const most = Math.max(...COUNTS);
	const dispatch = (count, options) => page.evaluate(({ sources, options }) => window.bench.pluginDispatch(sources, options), { sources: sources.slice(0, count), options });
	console.log(`\nHook dispatch through plugins in Chromium ${browser.version()}: isolated (each plugin in its own sandboxed frame's worker, as in the app) against the same plugins in the page, through the app's plugin host and hook bus, which calls isolated plugins without waiting for one another and in-page ones in turn (goal: isolation adds under ${ADDED_GOAL_MS} ms per dispatch at ${most} plugins)`);
	const results = [];
	for (const count of COUNTS) results.push([count, await dispatch(count, { warmup: WARMUP, runs: RUNS })]);
	const idle = await dispatch(most, { warmup: 10, runs: FEW_RUNS, gapMs: IDLE_GAP_MS });
	const long = await dispatch(most, { warmup: 10, runs: FEW_RUNS, history: LONG_HISTORY });
	const [shortest, longest] = results[0][1].payloadChars.map((chars) => chars.toLocaleString('en'));
	console.log(`  Each plugin: pre_llm_call returns ~200 characters of context, post_compaction notes the session. pre_llm_call's history starts at 20 messages and gains one exchange a dispatch (${shortest} to ${longest} characters as JSON); every 10 dispatches a compaction leaves 20 other messages. The buses log every call as the app does (written to IndexedDB between dispatches, untimed).`);
	console.log(`  Per dispatch, after ${WARMUP} warm-up rounds, over ${RUNS} rounds back to back in which the two modes take turns; the page's timer counts in steps of 0.1 ms (no cross-origin isolation), so the mean says more than the median for short dispatches`);
	console.log('  pre_llm_call (collect, until the injected texts are back)');
	for (const [count, samples] of results) console.log(formatDispatch(count, samples.collect));
	const [, atMost] = results.at(-1);
	addedAtMost = median(atMost.collect.isolated) - median(atMost.collect['in-page']);
	console.log(formatDispatch(most, idle.collect, `, each after ${IDLE_GAP_MS} ms idle (as a turn's usually is; ${FEW_RUNS} rounds)`));
	const [longShortest, longLongest] = long.payloadChars.map((chars) => chars.toLocaleString('en'));
	console.log(formatDispatch(most, long.collect, `, a long session: history from ${LONG_HISTORY} messages (${longShortest} to ${longLongest} characters; ${FEW_RUNS} rounds)`));
	console.log('  post_compaction (notify, until settled())');
	for (const [count, samples] of results) console.log(formatDispatch(count, samples.notify));
	console.log(formatDispatch(most, idle.notify, `, each after ${IDLE_GAP_MS} ms idle (${FEW_RUNS} rounds)`));
	const disagree = [...results, [most, idle], [most, long]].filter(([, samples]) => samples.injected['in-page'] !== samples.injected.isolated).map(([count]) => count);
	console.log(`  Injected context, isolated against in the page: ${disagree.length ? `DIFFERS with ${disagree.join(', ')} plugins` : 'the same text at every count'}`);
}

async function measureRoundTrips(page, outOfProcess) {
	const most = Math.max(...COUNTS);
	const report = await page.evaluate(({ source, plugins, runs }) => window.bench.pluginRoundTrips(source, plugins, runs), { source: sources[0], plugins: most, runs: ROUND_TRIP_RUNS });
	const places = {
		'through the broker': `its sandboxed frame's worker, its channel held by the plugin broker's worker, as in the app (${outOfProcess})`,
		'frame worker': "its sandboxed frame's worker, its channel held by the page itself (as before the plugin broker)",
		'same thread': "a MessageChannel in the page's own thread (no thread or process to wake)"
	};
	const per = (total) => ms(total / most);
	const pair = (times) => `${per(times.inTurn)} a plugin in turn (${ms(times.inTurn)} for ${most}); all at once ${ms(times.atOnce)}, of which ${ms(times.posting)} posting the calls`;
	console.log(`  Where an isolated call's time goes, below the bus: ${most} copies of plugin 1's runtime called through the plugin protocol (every message checked), one after another (as a bus calling plugins in turn would), and all at once (as the app's bus calls isolated plugins); median of ${ROUND_TRIP_RUNS} rounds`);
	for (const [place, label] of Object.entries(places)) {
		const times = report.byPlace[place];
		console.log(`    in ${label}`);
		console.log(`      bare round trip (ping): ${pair(times.ping)}`);
		console.log(`      pre_llm_call with the payload above (${report.payloadChars.toLocaleString('en')} characters): ${pair(times.call)}`);
		console.log(`      pre_llm_call with an empty history: ${pair(times.emptyCall)}`);
		console.log(`      pre_llm_call with ${report.longMessages} history messages (${report.longPayloadChars.toLocaleString('en')} characters): ${pair(times.longCall)}`);
	}
	console.log(`    One structuredClone of the pre_llm_call payload in the page: ${ms(report.cloneMs)}`);
	const via = report.byPlace['through the broker'].call;
	const own = report.byPlace['frame worker'].call;
	brokerAdds = { one: (via.inTurn - own.inTurn) / most, most: via.atOnce - own.atOnce };
	console.log(
		`  What the plugin broker costs a pre_llm_call (the payload above) against the page holding each plugin's channel: ${ms(brokerAdds.one)} through one plugin ` +
			`(${per(via.inTurn)} against ${per(own.inTurn)}), ${ms(brokerAdds.most)} through ${most} at once (${ms(via.atOnce)} against ${ms(own.atOnce)}); ` +
			`the page's own part (posting the calls) ${ms(via.posting)} against ${ms(own.posting)}`
	);
}

/** Whether Chromium runs a frame like the plugin sandbox in a renderer process of its own. */
async function sandboxOutOfProcess(page, browser) {
	const cdp = await browser.newBrowserCDPSession();
	try {
		await page.evaluate(() => {
			// As the app opens one: the frame document, sandboxed by its own header.
			const frame = document.createElement('iframe');
			frame.id = 'bench-sandbox-probe';
			frame.src = '/plugin-frame.html';
			document.body.append(frame);
			return new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
		});
		const { targetInfos } = await cdp.send('Target.getTargets');
		await page.evaluate(() => document.getElementById('bench-sandbox-probe')?.remove());
		return targetInfos.some((target) => target.type === 'iframe' && target.url.endsWith('/plugin-frame.html'))
			? 'Chromium runs such frames out of process: every call crosses to another process'
			: "Chromium runs such frames in the page's process here";
	} finally {
		await cdp.detach();
	}
}

// 2. Start-up of the built app, with 5 isolated plugins from a second local origin and without.
if (PART === 'all' || PART === 'startup') await measureStartup();

// 3. One plugin's pre_llm_call under another plugin's flood (measured above, with the dispatch figures).
for (const line of floodLines) console.log(line);

async function measureFlood(page) {
	const { quiet, flooded, stopped } = await page.evaluate(({ source, runs, gapMs }) => window.bench.pluginFlood(source, runs, gapMs), { source: sources[0], runs: FLOOD_RUNS, gapMs: FLOOD_GAP_MS });
	const before = stats(quiet);
	const during = stats(flooded);
	floodAdds = { median: during.median - before.median, p95: during.p95 - before.p95 };
	const goal = floodAdds.median < FLOOD_GOAL_MS && floodAdds.p95 < FLOOD_GOAL_MS ? ' (within the goal)' : ' (OVER the goal)';
	return [
		`\nUnder a flood: pre_llm_call through one isolated plugin (plugin 1 above) while another isolated plugin keeps 250 storage writes of near a megabyte in flight (each a list of 24,000 short strings, the costliest kind of value to read), against the same call without it; ${FLOOD_RUNS} calls each, ${FLOOD_GAP_MS} ms apart (goal: the flood adds under ${FLOOD_GOAL_MS} ms, median and p95)`,
		`  without the flood: median ${ms(before.median)}, p95 ${ms(before.p95)}`,
		`  during the flood: median ${ms(during.median)}, p95 ${ms(during.p95)}, slowest ${ms(Math.max(...flooded))} (${flooded.length} calls)`,
		stopped
			? `  the app stopped the flooding plugin ${ms(stopped.afterMs)} after its flood began, the calls after that left out: ${stopped.reason}`
			: `  the flooding plugin was not stopped while it flooded`,
		`  added by the flood: ${ms(floodAdds.median)} (median), ${ms(floodAdds.p95)} (p95)${goal}`
	];
}

/**
 * Lets a measured page finish what it still fetches before the next navigation; a page that
 * keeps a request open past the bound is navigated anyway (the next figure then says so).
 */
async function settle(page) {
	await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
}

async function measureStartup() {
	const pluginDir = await mkdtemp(join(tmpdir(), 'palimpsest-bench-plugins-'));
	const bench = await openBench();
	let origin;
	try {
		for (let i = 0; i < STARTUP_PLUGINS; i++) await writeFile(join(pluginDir, `bench-${i + 1}.js`), sources[i]);
		origin = await serve({ root: pluginDir, cors: true, fallback: null });
		// One browser profile each, so the two never share a database; reloads take turns.
		const plain = await bench.browser.newContext({ serviceWorkers: 'block' });
		const withPlugins = await bench.browser.newContext({ serviceWorkers: 'block' });
		for (const context of [plain, withPlugins]) await context.addInitScript(noteMessageBox);
		const pages = { 0: await plain.newPage(), [STARTUP_PLUGINS]: await withPlugins.newPage() };
		for (const page of Object.values(pages)) await openChat(page, bench.url);
		await seedPlugins(pages[STARTUP_PLUGINS], origin.url);

		const ready = { 0: [], [STARTUP_PLUGINS]: [] };
		const inserted = { 0: [], [STARTUP_PLUGINS]: [] };
		const loaded = [];
		// Once measured, each page is left to finish what it still does (loading plugins, say)
		// before the next navigation; each setup goes first in half the rounds. The first round
		// is a warm-up (the first load of the plugins also fetches and caches them).
		for (let run = 0; run <= RELOADS; run++) {
			for (const count of run % 2 ? [STARTUP_PLUGINS, 0] : [0, STARTUP_PLUGINS]) {
				const at = await openChat(pages[count], bench.url);
				await settle(pages[count]);
				if (run > 0) ready[count].push(at.seen);
				if (run > 0) inserted[count].push(at.inserted);
			}
			const at = await openPluginsPage(pages[STARTUP_PLUGINS], bench.url);
			await settle(pages[STARTUP_PLUGINS]);
			if (run > 0) loaded.push(at);
		}
		const later = median(ready[STARTUP_PLUGINS]) - median(ready[0]);
		const runs = (values) => values.map((t) => t.toFixed(0)).join(', ');
		const insertedLater = median(inserted[STARTUP_PLUGINS]) - median(inserted[0]);
		console.log(`\nStart-up of the built app with ${STARTUP_PLUGINS} isolated plugins (served by a second local origin with CORS) against none; service worker blocked; median of ${RELOADS} reloads each after a warm-up, the two taking turns (goal: the Message box interactive no more than ${STARTUP_GOAL_MS} ms later)`);
		console.log(`  Navigation to interactive Message box: no plugins ${ms(median(ready[0]))} (runs: ${runs(ready[0])}); ${STARTUP_PLUGINS} plugins ${ms(median(ready[STARTUP_PLUGINS]))} (runs: ${runs(ready[STARTUP_PLUGINS])}); ${later >= 0 ? `${ms(later)} later` : `${ms(-later)} earlier`}${later <= STARTUP_GOAL_MS ? ' (within the goal)' : ' (OVER the goal)'}`);
		console.log(`    of which the Message box was in the page (its own clock, no polling): no plugins ${ms(median(inserted[0]))}, ${STARTUP_PLUGINS} plugins ${ms(median(inserted[STARTUP_PLUGINS]))} (${insertedLater >= 0 ? `${ms(insertedLater)} later` : `${ms(-insertedLater)} earlier`}); the rest is Playwright seeing it, slower while the page's thread is busy`);
		console.log(`  Navigation to all ${STARTUP_PLUGINS} plugins Loaded (Plugins page): median ${ms(median(loaded))} (runs: ${runs(loaded)})`);
		await plain.close();
		await withPlugins.close();
	} finally {
		await bench.close();
		await origin?.close();
		await rm(pluginDir, { recursive: true, force: true });
	}
}

/** Runs in each page before the app: notes when the Message box is first in the document. */
function noteMessageBox() {
	const observer = new MutationObserver(() => {
		if (!document.querySelector('textarea[aria-label="Message"]')) return;
		window.benchMessageBoxAt = performance.now();
		observer.disconnect();
	});
	observer.observe(document, { childList: true, subtree: true });
}

/**
 * Goes to the chat. `seen`: the page's time (ms since navigation) when Playwright found the
 * Message box visible (as bench/startup.mjs measures); `inserted`: when it entered the page.
 */
async function openChat(page, appUrl) {
	await page.goto(appUrl + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	return page.evaluate(() => ({ seen: performance.now(), inserted: window.benchMessageBoxAt }));
}

/** Goes to the Plugins page; returns the page's time when every plugin row says Loaded. */
async function openPluginsPage(page, appUrl) {
	await page.goto(appUrl + '/plugins');
	const settled = await page.waitForFunction(
		(count) => {
			const failure = document.querySelector('li.plugin .state.failed, li.plugin .state.stopped');
			if (failure) return { failure: failure.closest('li')?.textContent ?? 'a plugin failed' };
			return document.querySelectorAll('li.plugin .state.loaded').length === count ? { failure: null } : false;
		},
		STARTUP_PLUGINS,
		{ polling: 'raf' }
	);
	const { failure } = await settled.jsonValue();
	if (failure) throw new Error(`A plugin did not load: ${failure}`);
	return page.evaluate(() => performance.now());
}

/** Plugin rows as the app stores an added plugin, enabled, never loaded yet (no cached copy). */
async function seedPlugins(page, pluginOrigin) {
	const rows = Array.from({ length: STARTUP_PLUGINS }, (_, i) => ({
		id: `bench-${i + 1}`, url: `${pluginOrigin}/bench-${i + 1}.js`, position: i, enabled: 1, pinned_sha256: null,
		cached_source: null, cached_sha256: null, manifest: null, last_error: null, added_at: Date.now() + i
	}));
	await seedDatabase(page, { plugins: rows });
}
const floodHeadline = `another plugin's flood of near-megabyte writes adds ${ms(floodAdds.median)} (median; p95 ${ms(floodAdds.p95)}) to a plugin's pre_llm_call (goal < ${FLOOD_GOAL_MS} ms)`;
headline(
	PART === 'startup'
		? 'start-up only (PART=startup): see above'
		: PART === 'flood'
			? floodHeadline
			: PART === 'dispatch'
				? `isolation adds ${ms(addedAtMost)} (median) to a pre_llm_call through ${Math.max(...COUNTS)} plugins (goal < ${ADDED_GOAL_MS} ms); of a call below the bus, the plugin broker takes ${ms(brokerAdds.one)} through 1 plugin and ${ms(brokerAdds.most)} through ${Math.max(...COUNTS)}`
				: `isolation adds ${ms(addedAtMost)} (median) to a pre_llm_call through ${Math.max(...COUNTS)} plugins (goal < ${ADDED_GOAL_MS} ms); ${floodHeadline}`
);
