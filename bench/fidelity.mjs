// Fact-fidelity benchmark: how well the fact check that follows every compaction finds the facts
// of a conversation, and how many of them a summary keeps. Over a corpus of conversations whose
// facts are labelled by hand (bench/lib/fidelity-corpus), it prints
// 1. the extractor's recall (labelled facts it finds) and precision (its facts that are
//    labelled), per class and overall, with the labels it missed and some facts nobody labelled;
// 2. the share of labelled facts the offline model's summaries keep, then after an automatic
//    compaction adds lost facts within a tenth of the summary's budget, then after "Add lost facts
//    to summary" adds them all;
// 3. the time of the check of a 100,000-token span through the context worker on a worker
//    thread, and its compute alone in this thread.
// With --provider <base URL> --model <name> (key from PALIMPSEST_BENCH_KEY, optional), part 2 runs
// again with summaries that model writes from the app's own summary request (an
// OpenAI-compatible Chat Completions endpoint). In quick mode without --provider, that part runs
// against the local mock provider, and a bad answer from it must stop the run with a clear error.
// Prints figures; asserts nothing else. Run: node bench/fidelity.mjs
import { buildBench } from './build-bench.mjs';
import { int, machine, ms } from './print.mjs';
import { QUICK, headline, size } from './quick.mjs';
import { startMockProvider } from '../tests/support/mock-provider.mjs';

const GOAL_RECALL = 0.95;
const GOAL_PRECISION = 0.8;
const GOAL_CHECK_MS = 50;
const CONVERSATIONS = size(Infinity, 4);
const SPAN_TOKENS = size(100_000, 10_000);
const RUNS = size(11, 2);
/** The offline model: what the app passes to the worker when it compacts with it. */
const OFFLINE_MODEL = 'offline-mini';
const SHOWN_UNLABELLED = 12;

/** `--name value` from the command line, or undefined. */
function option(name) {
	const at = process.argv.indexOf(`--${name}`);
	if (at < 0) return undefined;
	const value = process.argv[at + 1];
	if (!value || value.startsWith('--')) throw new Stop(`--${name} needs a value`);
	return value;
}

/** What stops the run with its message alone: a wrong command line, or a model that did not answer with a summary. */
class Stop extends Error {}

function readEndpoint() {
	const baseUrl = option('provider');
	const model = option('model');
	if (!baseUrl && !model) return null;
	if (!baseUrl || !model) throw new Stop('Give both --provider <base URL> and --model <name> to measure a model\'s summaries.');
	if (!/^https?:\/\//.test(baseUrl)) throw new Stop(`--provider must be an http(s) base URL such as https://api.example.com/v1, not "${baseUrl}"`);
	return { baseUrl, model, apiKey: process.env.PALIMPSEST_BENCH_KEY ?? '' };
}

const share = (part, whole) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : 'n/a');
const pad = (text, width) => String(text).padStart(width);

function printExtraction(score, heldOut, classes) {
	console.log(`Extractor against the labels: ${int(score.total.labels)} labelled facts in ${score.conversations} conversations, ${int(score.total.extracted)} facts extracted`);
	console.log('  class        labels  found  recall  extracted  labelled  precision');
	for (const kind of [...classes, 'total']) {
		const row = kind === 'total' ? score.total : score.byClass[kind];
		console.log(`  ${kind.padEnd(11)} ${pad(row.labels, 7)} ${pad(row.found, 6)} ${pad(share(row.found, row.labels), 7)} ${pad(row.extracted, 10)} ${pad(row.labelled, 9)} ${pad(share(row.labelled, row.extracted), 10)}`);
	}
	console.log(`  (goals: recall at least ${GOAL_RECALL * 100}%, precision at least ${GOAL_PRECISION * 100}%; ${score.crossClass} labels were found under another class)`);
	if (heldOut.total.labels) {
		const h = heldOut.total;
		console.log(`  of these, the ${heldOut.conversations} conversations written after the extractor's patterns were fitted to the others (recall 96.6% then; their misses have since been used to add general rules, so these figures no longer measure conversations the patterns were not fitted to): ${h.labels} labels, recall ${share(h.found, h.labels)}, precision ${share(h.labelled, h.extracted)}`);
	}
	console.log(`  Missed labels (${score.missed.length}):`);
	for (const label of score.missed) console.log(`    ${label.class.padEnd(11)} ${JSON.stringify(label.text)}  (${label.conversation})`);
	console.log(`  Extracted facts no label matches (${score.unlabelled.length}; ${Math.min(SHOWN_UNLABELLED, score.unlabelled.length)} of them, taken in turn from each class):`);
	for (const fact of sample(score.unlabelled, SHOWN_UNLABELLED)) console.log(`    ${fact.class.padEnd(11)} ${JSON.stringify(fact.text)}  (${fact.conversation})`);
}

/** Up to `count` items spread over their classes, in order within each. */
function sample(items, count) {
	const byClass = new Map();
	for (const item of items) byClass.set(item.class, [...(byClass.get(item.class) ?? []), item]);
	const out = [];
	for (let round = 0; out.length < count && out.length < items.length; round++) {
		for (const list of byClass.values()) if (list[round] && out.length < count) out.push(list[round]);
	}
	return out;
}

function printSummaries(label, result, perConversation) {
	console.log(`${label}: ${result.conversations} conversations, ${int(result.tokens)} tokens, summaries ${int(result.summaryTokens)} tokens`);
	if (perConversation) {
		console.log('  conversation                  budget  labels  kept  after automatic adding  after Add lost facts  lost facts over the automatic budget');
		for (const row of result.perConversation) {
			console.log(`  ${row.id.padEnd(28)} ${pad(row.budget, 7)} ${pad(row.labels, 7)} ${pad(row.kept, 5)} ${pad(row.keptAuto, 23)} ${pad(row.keptAll, 21)} ${pad(row.notFitted, 37)}`);
		}
	}
	console.log(`  labelled facts kept by the summaries: ${result.kept} of ${result.labels} (${share(result.kept, result.labels)})`);
	console.log(`  after automatic adding (lost facts within a tenth of each summary's budget: ${result.added} added, +${int(result.autoTokens)} tokens): ${result.keptAuto} (${share(result.keptAuto, result.labels)}); ${result.notFitted} lost facts did not fit`);
	console.log(`  after "Add lost facts to summary" (every lost fact: +${int(result.allTokens)} tokens): ${result.keptAll} (${share(result.keptAll, result.labels)}) (goal: 100%)`);
	console.log(`  the check's own count: the summaries held ${result.checkKept} of the ${result.checked} facts it extracted (${share(result.checkKept, result.checked)})`);
	if (result.neverKept.length) {
		console.log(`  labelled facts still not held after adding every lost fact (${result.neverKept.length}; the extractor did not find them as labelled):`);
		for (const label of result.neverKept) console.log(`    ${label.class.padEnd(11)} ${JSON.stringify(label.text)}  (${label.conversation})`);
	}
}

/** Runs the model part against `target`; resolves to its figures. */
async function measureModel(node, corpus, worker, target, quiet = false) {
	const summarise = node.modelSummary(target, worker);
	const result = await node.measureSummaries(corpus, summarise, node.rawCount).catch((error) => {
		throw new Stop(error.message);
	});
	if (!quiet) printSummaries(`Summaries by "${target.model}" at ${target.baseUrl} (the app's summary request; answers over budget cut as the app cuts them)`, result, !QUICK);
	return result;
}

/** In quick mode: the model part against the local mock provider, and its bad answers. */
async function measureMock(node, corpus, worker) {
	const mock = await startMockProvider();
	try {
		const target = { baseUrl: `${mock.url}/v1`, model: 'mock-model', apiKey: '', retries: 0 };
		// The mock echoes the request's last message: the transcript, which the worker cuts to the budget.
		const result = await measureModel(node, corpus, worker, target);
		for (const [what, answer] of [
			['an HTTP error', { type: 'http_error', status: 500, body: { error: { message: 'upstream overloaded' } } }],
			['a malformed body', { type: 'reply', body: '{"choices": [', contentType: 'application/json' }]
		]) {
			mock.script([answer]);
			const failed = await measureModel(node, corpus.slice(0, 1), worker, target, true).then(
				() => null,
				(error) => error
			);
			if (!failed) throw new Error(`The mock provider's ${what} was taken for a summary.`);
			console.log(`  ${what} from the model stops the run with: ${failed.message}`);
		}
		return result;
	} finally {
		await mock.close();
	}
}

/** Every part of the benchmark; resolves to the headline's figures. */
async function measure(endpoint) {
	console.log(machine());
	const built = await buildBench({ browser: false });
	let extraction;
	let offline;
	let model;
	let times;
	let span;
	try {
		const node = await import(built.nodeEntry);
		const classes = ['path', 'url', 'identifier', 'number', 'email', 'name', 'instruction'];
		const corpus = node.fidelityCorpus().slice(0, CONVERSATIONS);

		extraction = node.scoreExtraction(corpus);
		printExtraction(extraction, node.scoreExtraction(corpus.filter((conversation) => conversation.heldOut)), classes);
		console.log('');

		offline = await node.measureSummaries(corpus, node.offlineSummary(node.rawCount), node.rawCount);
		printSummaries('Summaries by the offline model (its extractive summary of each whole conversation, within the budget a compaction gives it)', offline, !QUICK);
		console.log('');

		const worker = node.threadWorker(built.threadFile);
		try {
			span = node.factSpan(corpus, SPAN_TOKENS, node.rawCount);
			times = await node.timeCheck(span, worker, OFFLINE_MODEL, node.rawCount, RUNS);
			console.log(`The check of a ${int(span.tokens)}-token span (${int(span.rows.length)} messages; the corpus repeated with its numbers changed) against its offline summary of ${int(node.rawCount(span.summary))} tokens, as an automatic compaction asks for it (lost facts within a tenth of the budget of ${int(span.budget)}):`);
			const stopped = times.stoppedAt === null ? '' : ` (the most a check takes: it stopped reading at message ${int(times.stoppedAt + 1)} of ${int(span.rows.length)}, as it does in the app)`;
			console.log(`  ${int(times.facts)} facts${stopped}, ${times.kept} held by the summary, ${times.added} to add`);
			console.log(`  checkSummary through the context worker on a Node worker thread: ${ms(times.workerMs)} (median of ${RUNS} after two left out; runs ${times.workerRuns.map(ms).join(', ')}) (goal: under ${GOAL_CHECK_MS} ms, off the page's thread); the first check the worker made took ${ms(times.firstMs)}`);
			console.log(`  the same check computed in this thread, without the round trip: ${ms(times.computeMs)} (median of ${RUNS}), ${ms(times.computeCpuMs)} of CPU time (the thread's own work, whatever else the machine runs)`);
			console.log('');

			if (endpoint) model = await measureModel(node, corpus, worker, endpoint);
			else if (QUICK) model = await measureMock(node, corpus, worker);
		} finally {
			worker.dispose();
		}
	} finally {
		await built.remove();
	}
	return { extraction, offline, model, times, span };
}

try {
	const endpoint = readEndpoint();
	const { extraction, offline, model, times, span } = await measure(endpoint);
	const t = extraction.total;
	const modelLine = model ? `; ${endpoint ? `"${endpoint.model}"` : 'the mock model'}: ${share(model.kept, model.labels)} kept, ${share(model.keptAuto, model.labels)} after automatic adding, ${share(model.keptAll, model.labels)} after Add lost facts` : '';
	headline(
		`the fact check finds ${share(t.found, t.labels)} of ${int(t.labels)} labelled facts (precision ${share(t.labelled, t.extracted)}; goals ${GOAL_RECALL * 100}%, ${GOAL_PRECISION * 100}%); offline summaries keep ${share(offline.kept, offline.labels)}, ${share(offline.keptAuto, offline.labels)} after automatic adding (${offline.notFitted} lost facts over its budget), ${share(offline.keptAll, offline.labels)} after Add lost facts (goal 100%)${modelLine}; checking a ${int(span.tokens)}-token span takes ${ms(times.workerMs)} in the worker (goal under ${GOAL_CHECK_MS} ms)`
	);
} catch (error) {
	if (!(error instanceof Stop)) throw error;
	console.error(`bench:fidelity stopped: ${error.message}`);
	process.exitCode = 1;
}
