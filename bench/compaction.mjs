// Compaction benchmark: compaction time of 50k-, 200k- and 1M-token sessions with the offline
// model's extractive summarizer, compactSession as "Compact now" runs it, in Chromium (real Web
// Worker, real IndexedDB) and in Node (worker thread, fake-indexeddb), with planning, summary
// and commit timed apart. Prints figures; asserts nothing. Run: node bench/compaction.mjs
import 'fake-indexeddb/auto';
import { buildBench } from './build-bench.mjs';
import { openBench } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const SIZES = size([50_000, 200_000, 1_000_000], [20_000]);
/** The size the headline reports. */
const HEADLINE_TOKENS = size(200_000, 20_000);
const GOAL_MS = 2_000;

function printCompaction(label, times) {
	const steps = times.steps.map(({ step, ms: took }) => `${step} ${ms(took)}`).join(', ');
	console.log(`  ${label}: ${int(times.tokens)} tokens in ${int(times.rows)} messages: ${ms(times.totalMs)} in all; ${times.outcome}`);
	console.log(`    planning ${ms(times.planMs)}, extractive summary ${ms(times.summaryMs)} (each timed alone over the same rows, as the worker runs them), commit ${ms(times.commitMs)} (one transaction)`);
	console.log(`    reading the live rows (compactSession's first step) ${ms(times.readMs)}; compactSession's worker calls in order: ${steps}`);
}

console.log(machine());
const built = await buildBench();
let headlineMs;
try {
	const node = await import(built.nodeEntry);
	console.log('Compaction time with the extractive summarizer (offline model, "Compact now": everything but the last exchange is summarised; counts already cached)');
	const bench = await openBench({ root: built.browserDir });
	try {
		const page = await bench.browser.newPage();
		await page.goto(bench.url + '/');
		await page.waitForFunction(() => 'bench' in window);
		for (const tokens of SIZES) {
			const times = await page.evaluate((tokens) => window.bench.compaction(tokens), tokens);
			printCompaction(`Chromium ${bench.browser.version()}, IndexedDB`, times);
			if (tokens === HEADLINE_TOKENS) headlineMs = times.totalMs;
		}
		await page.close();
	} finally {
		await bench.close();
	}
	console.log('');
	const thread = node.threadWorker(built.threadFile);
	try {
		await thread.countTexts(['start'], 'offline-mini');
		for (const tokens of SIZES) {
			const db = new node.PalimpsestDb(`bench-${crypto.randomUUID()}`);
			try {
				const sessionId = await node.storeSession(db, node.conversationOf(tokens, node.rawCount));
				printCompaction(`Node ${process.version}, fake-indexeddb (in memory, no disk: not a browser's IndexedDB)`, await node.measureCompaction(db, thread, sessionId));
			} finally {
				db.close();
				await db.delete();
			}
		}
	} finally {
		thread.dispose();
	}

} finally {
	await built.remove();
}
headline(`"Compact now" on a ${int(HEADLINE_TOKENS)}-token session in Chromium with the offline model: ${ms(headlineMs)} (goal: under ${ms(GOAL_MS)})`);
