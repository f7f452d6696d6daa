// Tool-server benchmark, against the MCP reference server (@modelcontextprotocol/server-everything)
// started on a free port. (1) A tool call's round trip in Chromium through the app's own path
// (the tool-server worker, reached through comlink as a turn reaches it) against the SDK's
// Client called straight from the page: get-sum, and echo with a 100 KB message. (2) Start-up
// of the built app with a tool server configured against none: the main-thread JavaScript
// requested before the Message box is ready (gzip), and the time to an interactive Message box.
// Prints figures; asserts nothing. Run: npx vite build && node bench/tools.mjs
// (RUNS=n calls per figure, 200 by default; RELOADS=n reloads per start-up figure, 8 by default;
// PART=calls or PART=startup for one part only)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startReferenceToolServer } from '../tests/support/tool-server.mjs';
import { median, openBench, seedDatabase, withHarnessPage } from './browser.mjs';
import { machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const WARMUP = size(20, 3);
const RUNS = Number(process.env.RUNS ?? size(200, 10));
const RELOADS = Number(process.env.RELOADS ?? size(8, 1));
const ECHO_CHARS = 100 * 1024;
/** `calls` or `startup` runs only that part. */
const PART = process.env.PART ?? 'all';
const ADDED_GOAL_MS = 5;
/** How long the page's network must be quiet (the tool server's open event stream aside) before the next navigation. */
const QUIET_MS = 500;

function percentile(values, p) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const signed = (value, format) => (value >= 0 ? `+${format(value)}` : `−${format(-value)}`);

console.log(machine());
const server = await startReferenceToolServer();
console.log(`The MCP reference server (@modelcontextprotocol/server-everything, Streamable HTTP) on ${server.url}, process ${server.pid}`);
/** The headline's figures. */
let added = {};
let startup = { diff: NaN, first: NaN };
try {
	if (PART !== 'startup') added = await measureCalls();
	if (PART !== 'calls') startup = await measureStartup();
} finally {
	await server.close();
}

// 1. Round trips, in the benchmark harness page.
async function measureCalls() {
	return withHarnessPage(async (page, browser) => {
		const report = await page.evaluate(({ url, options }) => window.bench.toolRoundTrips(url, options), {
			url: server.url,
			options: { warmup: WARMUP, runs: RUNS, echoChars: ECHO_CHARS }
		});
		console.log(`\nA tool call's round trip in Chromium ${browser.version()}, the page on one local origin and the server on another (CORS): the SDK's Client with StreamableHTTPClientTransport called from the page (callTool: the floor) against the app's path (the tool-server worker through comlink: the same SDK behind the app's bounded fetch, the result read and bounded for the transcript and the model) (goal: the app adds under ${ADDED_GOAL_MS} ms a call)`);
		console.log(`  First connection: SDK (initialize, tools/list) ${ms(report.connectMs.sdk)}; the app (worker started, initialize, tools/list read: ${report.tools} tools) ${ms(report.connectMs.app)}`);
		console.log(`  Per call, after ${WARMUP} warm-up rounds, over ${RUNS} rounds in which the two paths take turns`);
		const added = {};
		for (const [label, samples] of Object.entries(report.samples)) {
			const [sdk, app] = [samples.sdk, samples.app];
			added[label] = median(app) - median(sdk);
			console.log(`    ${label}: SDK alone median ${ms(median(sdk))}, p95 ${ms(percentile(sdk, 0.95))}; through the app median ${ms(median(app))}, p95 ${ms(percentile(app, 0.95))}`);
			console.log(`      the app adds ${signed(added[label], ms)} (median), ${signed(percentile(app, 0.95) - percentile(sdk, 0.95), ms)} (p95)${added[label] < ADDED_GOAL_MS ? ' (within the goal)' : ' (OVER the goal)'}`);
		}
		console.log(`  Results, the app against the SDK alone: ${report.disagreements.length ? `DIFFER for ${report.disagreements.join(', ')}` : 'the same text in every call'}`);
		return added;
	});
}

// 2. Start-up of the built app, with the reference server configured and without.
async function measureStartup() {
	const bench = await openBench();
	try {
		// One browser profile each, so the two never share a database; reloads take turns.
		const setups = { none: await openSetup(bench), server: await openSetup(bench) };
		const config = { id: 'bench-tool-server', url: server.url, authorization: '', added_at: Date.now(), disabled_tools: [], always_allowed: [] };
		await seedDatabase(setups.server.page, { settings: [{ key: 'tool_servers', value: [config] }] });

		// The JavaScript of one navigation each, with the HTTP cache off (every script fetched).
		const loads = {};
		for (const [name, setup] of Object.entries(setups)) loads[name] = await loadScripts(setup, bench.url, name === 'server');

		const ready = { none: [], server: [] };
		const inserted = { none: [], server: [] };
		for (let run = 0; run < RELOADS; run++) {
			for (const name of run % 2 ? ['server', 'none'] : ['none', 'server']) {
				const at = await openChat(setups[name], bench.url, name === 'server');
				ready[name].push(at.seen);
				inserted[name].push(at.inserted);
			}
		}

		const sizes = (list) => ({ files: list.length, raw: list.reduce((sum, s) => sum + s.raw, 0), gzip: list.reduce((sum, s) => sum + s.gzip, 0) });
		const line = (list) => {
			const { files, raw, gzip } = sizes(list);
			return `${files} files, ${kb(raw)} raw, ${kb(gzip)} gzip`;
		};
		const before = { none: sizes(loads.none.before), server: sizes(loads.server.before) };
		const diff = (before.server.gzip - before.none.gzip) / 1024;
		const runs = (values) => values.map((t) => t.toFixed(0)).join(', ');
		console.log(`\nStart-up of the built app with the reference server configured (Settings → Tool servers, as the app stores it) against none; service worker blocked (goal: a configured server adds nothing to the JavaScript before the Message box is ready)`);
		console.log(`  Main-thread JavaScript requested before the Message box was ready (HTTP cache off): no server ${line(loads.none.before)}; a server ${line(loads.server.before)}; ${signed(diff, (v) => `${v.toFixed(1)} KB`)} gzip${Math.abs(diff) < 0.05 ? ' (within the goal)' : ' (OVER the goal)'}`);
		// What the page without a server never requested, in any navigation of this run.
		const own = loads.server.all.filter((s) => !setups.none.scripts.has(s.path));
		const first = Math.min(...own.map((s) => s.sinceMessageBox));
		console.log(`  Only with the server: ${line(own)} (${own.filter((s) => s.where === 'before').length} before the Message box), the first requested ${signed(first, ms)} from the Message box; the server connected (tools/list answered) ${signed(loads.server.connectedAt, ms)} from it`);
		for (const s of own.sort((a, b) => b.gzip - a.gzip)) console.log(`    ${kb(s.gzip)} gzip ${s.path.split('/').pop()} (${s.where === 'workers' ? 'in a worker' : `main thread, ${s.where} the Message box`})`);
		const later = median(ready.server) - median(ready.none);
		const insertedLater = median(inserted.server) - median(inserted.none);
		console.log(`  Navigation to interactive Message box, median of ${RELOADS} reloads each, the two taking turns: no server ${ms(median(ready.none))} (runs: ${runs(ready.none)}); a server ${ms(median(ready.server))} (runs: ${runs(ready.server)}); ${signed(later, ms)}`);
		console.log(`    of which the Message box was in the page (its own clock, no polling): no server ${ms(median(inserted.none))}, a server ${ms(median(inserted.server))} (${signed(insertedLater, ms)})`);
		for (const setup of Object.values(setups)) await setup.context.close();
		return { diff, first };
	} finally {
		await bench.close();
	}
}

/** A fresh browser profile with the app open once (so its database exists), noting when the Message box appears. */
async function openSetup(bench) {
	const context = await bench.browser.newContext({ serviceWorkers: 'block' });
	await context.addInitScript(noteMessageBox);
	const page = await context.newPage();
	const setup = { context, page, inFlight: new Set(), scripts: new Set() };
	// The tool server's event stream (a GET) stays open as long as the page: it is not traffic to wait for.
	const counts = (request) => !(request.url() === server.url && request.method() === 'GET');
	page.on('request', (request) => {
		if (counts(request)) setup.inFlight.add(request);
		if (request.resourceType() === 'script') setup.scripts.add(new URL(request.url()).pathname);
	});
	for (const done of ['requestfinished', 'requestfailed']) page.on(done, (request) => setup.inFlight.delete(request));
	await openChat(setup, bench.url, false);
	return setup;
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
 * Goes to the chat and waits until the page is quiet (with a server: until it has connected).
 * `seen`: the page's time when Playwright found the Message box visible (as bench/startup.mjs
 * measures); `inserted`: when it entered the page; `connectedAt`: when tools/list was answered.
 */
async function openChat(setup, appUrl, connects) {
	const { page } = setup;
	const listed = connects ? page.waitForResponse((response) => response.url() === server.url && (response.request().postData() ?? '').includes('"tools/list"')) : null;
	await page.goto(appUrl + '/');
	await page.getByRole('textbox', { name: 'Message' }).waitFor();
	const at = await page.evaluate(() => ({ seen: performance.now(), inserted: window.benchMessageBoxAt, origin: performance.timeOrigin }));
	let connectedAt = NaN;
	if (listed) {
		const response = await listed;
		await response.finished();
		connectedAt = response.request().timing().startTime + response.request().timing().responseEnd - (at.origin + at.inserted);
	}
	await quiet(setup);
	return { ...at, connectedAt };
}

/** Waits until no request of the page (or its workers) has been in flight for QUIET_MS. */
async function quiet(setup) {
	let quietSince = Date.now();
	while (Date.now() - quietSince < QUIET_MS) {
		await new Promise((resolve) => setTimeout(resolve, 50));
		if (setup.inFlight.size > 0) quietSince = Date.now();
	}
}

/**
 * One navigation with the HTTP cache off (Playwright routing turns it off): every script the
 * page and its workers requested, with its size and when it was requested against the Message
 * box. As bench/startup.mjs decides: a script in the page's resource timeline before the Message
 * box counts as start-up; one missing from it was requested by a worker.
 */
async function loadScripts(setup, appUrl, connects) {
	const { context, page } = setup;
	const requested = [];
	const note = (request) => request.resourceType() === 'script' && requested.push(request);
	page.on('requestfinished', note);
	await context.route('**/*', (route) => route.continue());
	let at;
	try {
		at = await openChat(setup, appUrl, connects);
	} finally {
		page.off('requestfinished', note);
		await context.unrouteAll();
	}
	const timeline = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime])));
	const scripts = [];
	for (const request of requested) {
		const path = new URL(request.url()).pathname;
		const body = await readFile(join('build', path));
		const startTime = timeline[request.url()];
		// A worker's own script shows in the page's timeline too, but runs off the main thread.
		const where = startTime === undefined || path.includes('/workers/') ? 'workers' : startTime < at.inserted ? 'before' : 'after';
		const sinceMessageBox = request.timing().startTime - (at.origin + at.inserted);
		scripts.push({ path, where, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, sinceMessageBox });
	}
	return { all: scripts, before: scripts.filter((s) => s.where === 'before'), connectedAt: at.connectedAt };
}

headline(
	[
		PART !== 'startup'
			? `the app adds ${Object.entries(added).map(([label, value]) => `${signed(value, ms)} (${label})`).join(' and ')} to a tool call's round trip against the SDK alone (medians; goal < ${ADDED_GOAL_MS} ms)`
			: '',
		PART !== 'calls' ? `a configured tool server changes the JavaScript before the Message box by ${signed(startup.diff, (v) => `${v.toFixed(1)} KB`)} gzip (goal: 0; its code is first requested ${signed(startup.first, ms)} from the Message box)` : ''
	]
		.filter(Boolean)
		.join('; ')
);
