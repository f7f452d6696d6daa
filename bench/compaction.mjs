// Compaction benchmark: compaction time of 50k-, 200k- and 1M-token sessions with the offline
// model's extractive summarizer, compactSession as "Compact now" runs it, in Chromium (real Web
// Worker, real IndexedDB) and in Node (worker thread, fake-indexeddb), with planning, summary
// and commit timed apart; then the tokens each compaction frees over sessions of several sizes
// and mixes of text. Prints figures; asserts nothing. Run: node bench/compaction.mjs
import 'fake-indexeddb/auto';
import { buildBench, withScratchDb } from './build-bench.mjs';
import { openBench } from './browser.mjs';
import { int, machine, ms } from './print.mjs';
import { headline, size } from './quick.mjs';

const SIZES = size([50_000, 200_000, 1_000_000], [20_000]);
/** The size the headline reports. */
const HEADLINE_TOKENS = size(200_000, 20_000);
const GOAL_MS = 2_000;
/** Sessions for the tokens-freed table: sizes and corpus seeds (each seed another mix of text). */
const FREED_SIZES = size([3_600, 10_000, 50_000, 200_000], [3_600, 10_000]);
const FREED_SEEDS = size([1, 2, 3], [1]);
/** What a compaction should free of what it replaces: the summary has a budget of about a fifth. */
const FREED_GOAL = 0.75;

function printCompaction(label, times) {
	const steps = times.steps.map(({ step, ms: took }) => `${step} ${ms(took)}`).join(', ');
	console.log(`  ${label}: ${int(times.tokens)} tokens in ${int(times.rows)} messages: ${ms(times.totalMs)} in all; ${times.outcome}`);
	console.log(`    planning ${ms(times.planMs)}, extractive summary ${ms(times.summaryMs)} (each timed alone over the same rows, as the worker runs them), commit ${ms(times.commitMs)} (one transaction)`);
	console.log(`    reading the live rows (compactSession's first step) ${ms(times.readMs)}; compactSession's worker calls in order: ${steps}`);
}

/** Compacts sessions of each size and corpus seed, "Compact now" and the automatic kind, and prints the tokens each freed. */
async function printFreed(node, thread) {
	console.log('Tokens freed per compaction (offline model, extractive summary within its budget of about 20% of what it replaces), Node, fake-indexeddb:');
	console.log('  reason   session tokens  seed  replaced  summary  freed     freed of replaced');
	const shares = [];
	for (const reason of ['manual', 'pre_api']) {
		for (const tokens of FREED_SIZES) {
			for (const seed of FREED_SEEDS) {
				const result = await withScratchDb(node, async (db) => {
					const sessionId = await node.storeSession(db, node.conversationOf(tokens, node.rawCount, true, seed));
					return node.measureFreed(db, thread, sessionId, reason);
				});
				if (result.outcome !== 'compacted') {
					console.log(`  ${reason.padEnd(8)} ${int(tokens).padStart(14)}  ${String(seed).padStart(4)}  no compaction: ${result.outcome}`);
					continue;
				}
				const freed = result.before - result.after;
				shares.push(freed / result.replaced);
				console.log(`  ${reason.padEnd(8)} ${int(tokens).padStart(14)}  ${String(seed).padStart(4)}  ${int(result.replaced).padStart(8)}  ${int(result.summary).padStart(7)}  ${int(freed).padStart(8)}  ${((freed / result.replaced) * 100).toFixed(1).padStart(6)}%`);
			}
		}
	}
	shares.sort((a, b) => a - b);
	console.log(`  ${shares.length} compactions: freed of replaced, lowest ${(shares[0] * 100).toFixed(1)}%, median ${(shares[Math.floor(shares.length / 2)] * 100).toFixed(1)}% (goal: at least ${FREED_GOAL * 100}%)`);
	return shares[0];
}

console.log(machine());
const built = await buildBench();
let headlineMs;
let freedShare;
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
			await withScratchDb(node, async (db) => {
				const sessionId = await node.storeSession(db, node.conversationOf(tokens, node.rawCount));
				printCompaction(`Node ${process.version}, fake-indexeddb (in memory, no disk: not a browser's IndexedDB)`, await node.measureCompaction(db, thread, sessionId));
			});
		}
		console.log('');
		freedShare = await printFreed(node, thread);
	} finally {
		thread.dispose();
	}
} finally {
	await built.remove();
}
headline(`"Compact now" on a ${int(HEADLINE_TOKENS)}-token session in Chromium with the offline model: ${ms(headlineMs)} (goal: under ${ms(GOAL_MS)}); every compaction freed at least ${(freedShare * 100).toFixed(1)}% of what it replaced (goal: at least ${FREED_GOAL * 100}%)`);
