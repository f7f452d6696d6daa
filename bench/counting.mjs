// Counting benchmark. (1) Throughput of the context worker against gpt-tokenizer's own
// countTokens in the same run, over one mixed corpus (English, JSON, CJK, code): in Node over
// a worker thread and over a MessageChannel, and in Chromium over a real Web Worker. (2) The
// request estimate after one new ~2 KB message in a 200k-token session, against a full recount.
// Prints figures; asserts nothing. Run: node bench/counting.mjs
import 'fake-indexeddb/auto';
import { buildBench } from './build-bench.mjs';
import { openBench } from './browser.mjs';
import { formatCost, formatThroughput, int, machine, ms } from './print.mjs';

const TEXTS = 200;
const ROUNDS = 3;
const BATCH = 100;
const SESSION_TOKENS = 200_000;
const APPEND_RUNS = 20;
const RECOUNT_RUNS = 3;

console.log(machine());
/** "English prose (2,048 characters, 420 tokens) or mixed text (…)". */
const describeAdded = (added) => Object.entries(added).map(([kind, size]) => `${kind} (${int(size.chars)} characters, ${int(size.tokens)} tokens)`).join(' or ');

const built = await buildBench();
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

	const bench = await openBench({ root: built.browserDir });
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
		console.log(formatCost('    estimate through the Web Worker (the call the app makes)', inBrowser.worker) + `; a bare round trip to the worker: ${ms(inBrowser.worker.roundTripMs)}`);
		console.log(formatCost('    estimateSession: read the live rows from IndexedDB, count in the worker, store', inBrowser.stored) + `; reading the ${int(inBrowser.stored.rows)} live rows alone: ${ms(inBrowser.stored.readMs)}`);
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
		console.log(formatCost('    estimate through a worker thread', worker) + `; a bare round trip to the worker: ${ms(worker.roundTripMs)}`);
		const db = new node.PalimpsestDb(`bench-${crypto.randomUUID()}`);
		try {
			const sessionId = await node.storeSession(db, rows);
			const stored = await node.estimateStoredSession({ ...options, db, sessionId }, thread, fresh);
			console.log(formatCost("    estimateSession with fake-indexeddb (in memory, no disk: not a browser's IndexedDB)", stored) + `; reading the ${int(stored.rows)} live rows alone: ${ms(stored.readMs)}`);
		} finally {
			db.close();
			await db.delete();
		}
	} finally {
		thread.dispose();
	}
} finally {
	await built.remove();
}
