// Counting benchmark. (1) Throughput of the context worker against gpt-tokenizer's own
// countTokens in the same run, over one mixed corpus (English, JSON, CJK, code): in Node over
// a worker thread and over a MessageChannel, and in Chromium over a real Web Worker. (2) The
// request estimate after one new ~2 KB message in a 200k-token session, against a full recount.
// Prints figures; asserts nothing. Run: node bench/counting.mjs
import 'fake-indexeddb/auto';
import { buildBench, withScratchDb } from './build-bench.mjs';
import { openBench } from './browser.mjs';
import { formatCost, formatThroughput, int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const TEXTS = size(200, 20);
const ROUNDS = size(3, 1);
const BATCH = size(100, 10);
const SESSION_TOKENS = size(200_000, 10_000);
const APPEND_RUNS = size(20, 2);
const RECOUNT_RUNS = size(3, 1);

console.log(machine());

/**
 * estimateSession as the app runs it after an append: ready (what a turn waits for before its
 * request) and stored (its counts and total written), for a new answer and for a typed message.
 */
function printStored(where, stored) {
	console.log(`    estimateSession, the app's path after an append (${where}): the session's tally in memory, only what changed is counted and stored`);
	console.log(formatCost('      estimate ready, a new answer (counted in the worker beside its final write, as the turn does)', stored.ready.answer));
	console.log(`        (the answer's count was back after ${ms(stored.beside.countMs)}, its write committed after ${ms(stored.beside.writeMs)}, both started together)`);
	console.log(formatCost('      estimate ready, a typed message (the Message box counted its draft while it was typed)', stored.ready.typed));
	console.log(formatCost('      and its counts stored, a new answer', stored.stored.answer));
	console.log(formatCost('      and its counts stored, a typed message', stored.stored.typed));
	const notice = stored.noticeMs === undefined ? '' : `; each append's commit notice taken into the tally: ${ms(stored.noticeMs)} (part of the append, not of these figures)`;
	console.log(`      for comparison, reading the ${int(stored.rows)} live rows: ${ms(stored.readMs)}; their keys alone ([session_id+active+seq] primaryKeys, not needed): ${ms(stored.keysMs)}${notice}`);
}
/** "English prose (2,048 characters, 420 tokens) or mixed text (…)". */
const describeAdded = (added) => Object.entries(added).map(([kind, size]) => `${kind} (${int(size.chars)} characters, ${int(size.tokens)} tokens)`).join(' or ');

const built = await buildBench();
/** The headline: in Chromium, the estimate ready after a new answer against a full recount. */
let browserReady;
try {
	const node = await import(built.nodeEntry);
	const texts = (round) => node.corpusTexts(TEXTS, 2048, round + 2);
	const model = 'offline-mini';
	console.log(`Counting throughput, o200k_base: ${TEXTS} texts of ~2 KB (English, JSON, CJK and code in turn), new texts each round (the tokenizer's cache helps only with what repeats), ${BATCH} texts per worker call, median of ${ROUNDS} rounds, raw and worker taking turns batch by batch`);
	// Node: the worker thread has its own tokenizer, as the browser's worker has, so neither
	// path finds the other's work in its cache (a MessageChannel in this thread would share one).
	const counter = node.threadWorker(built.threadFile);
	try {
		const label = `Node ${process.version}, worker thread`;
		console.log(formatThroughput(label, await node.measureThroughput({ counter, raw: node.rawCount, texts, kindOf: node.kindOf, model, rounds: ROUNDS, batch: BATCH })));
	} finally {
		counter.dispose();
	}

	// Cross-origin isolated: performance.now() resolves 5 µs, as the cheapest estimates need.
	const bench = await openBench({ root: built.browserDir, isolated: true });
	try {
		const page = await bench.browser.newPage();
		await page.goto(bench.url + '/');
		await page.waitForFunction(() => 'bench' in window);
		const chromium = `Chromium ${bench.browser.version()}, Web Worker`;
		console.log(formatThroughput(chromium, await page.evaluate(({ texts, rounds, batch }) => window.bench.throughput(texts, rounds, batch), { texts: TEXTS, rounds: ROUNDS, batch: BATCH })));

		console.log(`\nRequest estimate after appending one 2 KB message to a ${SESSION_TOKENS.toLocaleString('en')}-token session, against a full recount (goal: at least 1,000× cheaper)`);
		console.log(`  Median of ${APPEND_RUNS} appends, each of a new message (the tokenizer's cache holds the session's text), and of ${RECOUNT_RUNS} recounts, each with an empty cache (in a fresh worker, or after clearing the page's own)`);
		const inBrowser = await page.evaluate(({ tokens, append, recount }) => window.bench.estimate(tokens, append, recount), { tokens: SESSION_TOKENS, append: APPEND_RUNS, recount: RECOUNT_RUNS });
		console.log(`  Chromium, ${inBrowser.rows} messages; the new message: ${describeAdded(inBrowser.added)}`);
		console.log(formatCost('    estimate in the page itself (no worker)', inBrowser.thread));
		console.log(formatCost('    the worker\'s estimate call, every cached count sent along', inBrowser.worker) + `; a bare round trip to the worker: ${ms(inBrowser.worker.roundTripMs)}`);
		printStored('Chromium', inBrowser.stored);
		browserReady = inBrowser.stored.ready.answer;
		await page.close();
	} finally {
		await bench.close();
	}

	const rows = node.conversationOf(SESSION_TOKENS, node.rawCount);
	const extras = { systemPrompt: node.DEFAULT_SYSTEM_PROMPT, reservedOutput: node.reservedOutputFor(node.contextWindowFor(model)) };
	const added = { 'English prose': (run) => node.englishMessage(100 + run), 'mixed text': (run) => node.mixedMessage(100 + run) };
	const options = { rows, added, model, extras, appendRuns: APPEND_RUNS, recountRuns: RECOUNT_RUNS };
	const fresh = () => node.threadWorker(built.threadFile);
	const sizes = Object.fromEntries(Object.entries(added).map(([kind, text]) => [kind, { chars: text(0).length, tokens: node.rawCount(text(0)) }]));
	console.log(`  Node, ${rows.length + 1} messages; the new message: ${describeAdded(sizes)}`);
	console.log(formatCost('    estimate in this thread (no worker)', await node.estimateInThread(options, node.rawCount, node.clearRawCache)));
	const thread = node.threadWorker(built.threadFile);
	try {
		const worker = await node.estimateThroughWorker(options, thread, fresh);
		console.log(formatCost("    the worker's estimate call, every cached count sent along", worker) + `; a bare round trip to the worker: ${ms(worker.roundTripMs)}`);
		await withScratchDb(node, async (db) => {
			const sessionId = await node.storeSession(db, rows);
			printStored("fake-indexeddb (in memory, no disk: not a browser's IndexedDB)", await node.estimateStoredSession({ ...options, db, sessionId }, thread, fresh));
		});
	} finally {
		thread.dispose();
	}
} finally {
	await built.remove();
}
const ready = browserReady?.appends[0];
headline(`request estimate ready after a new answer in Chromium: ${ready ? `${ms(ready.ms)}, ${int(ready.ratio)}× cheaper than a full recount (${ms(browserReady.recountMs)})` : 'not measured'} (goal: at least 1,000× cheaper)`);
