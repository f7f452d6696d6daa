// A long span for timing the fact check: the corpus's conversations one after another, again
// and again, each pass with its numbers changed (so its dates, amounts and versions are new
// facts, as in a long session) until the span reaches the tokens asked for; and its offline
// summary within the budget a compaction of it would get.
import type { ContextCounter } from '../../src/lib/agent/compaction-types';
import { ADD_FACTS_SHARE } from '../../src/lib/agent/summary-facts';
import { checkFacts, factsWithin } from '../../src/lib/context/check-facts';
import { costText, type ContextRow } from '../../src/lib/context/context-rows';
import { extractFacts, MAX_FACTS } from '../../src/lib/context/extract-facts';
import { extractiveSummary } from '../../src/lib/context/extractive-summary';
import { leastTokens } from '../../src/lib/context/least-tokens';
import { summaryBudget } from '../../src/lib/context/summary-budget';
import type { Conversation } from './fidelity-corpus';
import { median, medianOf, timed } from './timing';

type Count = (text: string) => number;

export interface FactSpan {
	rows: ContextRow[];
	tokens: number;
	summary: string;
	budget: number;
}

/** `text` with every number raised by `pass` (pass 0 leaves it as it is). */
const varied = (text: string, pass: number) => (pass ? text.replace(/\d+/g, (digits) => String(Number(digits) + pass)) : text);

/** The corpus repeated and varied until it holds at least `tokens` tokens, and its summary. */
export function factSpan(corpus: readonly Conversation[], tokens: number, count: Count): FactSpan {
	const rows: ContextRow[] = [];
	let total = 0;
	for (let pass = 0; total < tokens; pass++) {
		for (const conversation of corpus) {
			for (const row of conversation.rows) {
				const copy: ContextRow = { ...row, seq: rows.length, content: varied(row.content, pass) };
				rows.push(copy);
				total += count(costText(copy));
			}
			if (total >= tokens) break;
		}
	}
	const budget = summaryBudget(total);
	return { rows, tokens: total, budget, summary: extractiveSummary(rows, null, '', { budget, count }) };
}

export interface CheckTimes {
	/** The first check through the worker (its code not yet optimised by the engine). */
	firstMs: number;
	/** checkSummary through the context worker: median and every run (ms). */
	workerMs: number;
	workerRuns: number[];
	/** checkFacts and factsWithin in this thread: the same work without the round trip. */
	computeMs: number;
	computeRuns: number[];
	/** The CPU time of the same runs (median): what the work costs whatever else the machine runs. */
	computeCpuMs: number;
	facts: number;
	kept: number;
	added: number;
	/** When the check stopped at its limit of facts: the message it stopped at (the rest is not read, in the app too). */
	stoppedAt: number | null;
}

/** Times the fact check of `span`'s summary as an automatic compaction asks it, through `worker` and in this thread. */
export async function timeCheck(span: FactSpan, worker: ContextCounter, model: string, count: Count, runs: number): Promise<CheckTimes> {
	const addBudget = Math.floor(span.budget * ADD_FACTS_SHARE);
	const input = { rows: span.rows, summary: span.summary, model, addBudget };
	// The tokenizer is loaded before, as in the app (it counts every message); the check's own
	// code is not warm yet: the first check is timed apart, and two more are left out.
	await worker.countTexts(['start'], model);
	const first = await timed(() => worker.checkSummary(input));
	for (let warm = 0; warm < 2; warm++) await worker.checkSummary(input);
	const through = await medianOf(runs, () => worker.checkSummary(input));
	const cpu: number[] = [];
	checkFacts(span.rows, span.summary);
	const inThread = await medianOf(runs, () => {
		const started = process.cpuUsage();
		const check = checkFacts(span.rows, span.summary);
		const added = factsWithin(check.lost, addBudget, count, leastTokens);
		const used = process.cpuUsage(started);
		cpu.push((used.user + used.system) / 1000);
		return { ...check, added };
	});
	return {
		firstMs: first.ms,
		workerMs: through.ms,
		workerRuns: through.all,
		computeMs: inThread.ms,
		computeRuns: inThread.all,
		computeCpuMs: median(cpu),
		facts: through.value.total,
		kept: through.value.kept,
		added: through.value.added.length,
		stoppedAt: through.value.total >= MAX_FACTS ? span.rows.findIndex((row) => row.seq === extractFacts(span.rows).at(-1)!.seq) : null
	};
}
