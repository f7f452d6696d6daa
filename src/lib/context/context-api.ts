// The context worker's API: exact token counts, the request estimate and compaction planning
// (with the extractive summary), all off the main thread. The encoding tables (1-2 MB each)
// are imported on first use, so they load inside the worker and only when something is counted.

import {
	countTokens,
	encodingForModel,
	estimateRequestTokens,
	type EncodingName,
	type EstimateInput,
	type RequestEstimate,
	type TokenEncoder
} from './count-tokens';
import { costText, type ContextRow, type CountedRow } from './context-rows';
import { extractiveSummary } from './extractive-summary';
import { cutToBudget, summaryBudget } from './summary-budget';
import { checkFacts, factsWithin, type FactCheck, type LostFact } from './check-facts';
import { leastTokens } from './least-tokens';
import { planMicroSummarize, planProviderPrune, planPrune, planSummarize, prunedImagesText, type ImagePruning, type PrunePlan, type SummaryPlan } from './plan-compaction';

const loaders: Record<EncodingName, () => Promise<TokenEncoder>> = {
	o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
	cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base')
};

const encoders = new Map<EncodingName, Promise<TokenEncoder>>();

function loadEncoder(encoding: EncodingName): Promise<TokenEncoder> {
	let pending = encoders.get(encoding);
	if (!pending) {
		pending = loaders[encoding]();
		// A failed chunk load (e.g. offline before it was cached) may succeed later.
		pending.catch(() => encoders.delete(encoding));
		encoders.set(encoding, pending);
	}
	return pending;
}

async function counterFor(model: string): Promise<{ encoding: EncodingName; count: (text: string) => number }> {
	const encoding = encodingForModel(model);
	const encoder = await loadEncoder(encoding);
	return { encoding, count: (text) => countTokens(text, encoder) };
}

export type PrepareMode = 'summarize' | 'micro_summarize' | 'prune_tool_results' | 'provider_prune';

export interface PrepareInput {
	mode: PrepareMode;
	/** The live context, oldest first, with full content (cached counts are reused). */
	rows: ContextRow[];
	model: string;
	tailTokens: number;
	/** Write the summary here, in code (the offline model's summarizer). */
	extractive?: boolean;
	focus?: string;
	/** provider_prune: how many of the oldest tool results the provider cleared. */
	cleared?: number;
	/** summarize: keep only the last user message and what follows it. */
	minimalTail?: boolean;
	/** summarize: plan even when only earlier summaries lie before the tail. */
	rewriteSummaries?: boolean;
	/** prune_tool_results: also stop sending older images, or only that. */
	images?: ImagePruning;
}

export interface FactCheckInput {
	/** The rows the summary replaces (an earlier summary among them), with full content. */
	rows: ContextRow[];
	summary: string;
	model: string;
	/** Tokens the lost facts may use when appended to the summary; 0 adds none. */
	addBudget: number;
}

export interface CheckedSummary extends FactCheck {
	/** The lost facts that fit `addBudget`, to append to the summary. */
	added: LostFact[];
}

export interface PreparedCompaction {
	encoding: EncodingName;
	/** Fresh counts for rows that had none, as [seq, tokens], for the caller to cache. */
	counts: Array<[number, number]>;
	plan: SummaryPlan | PrunePlan | null;
	/** The extractive summary and its size, when one was asked for and there is something to summarise. */
	summary: { content: string; tokens: number } | null;
}

function hasUsableCount(row: ContextRow, encoding: EncodingName): boolean {
	return row.tokens !== undefined && Number.isFinite(row.tokens) && row.encoding === encoding;
}

export const contextApi = {
	/** The whole request estimate in one round trip; cached message counts are reused. */
	async estimate(input: EstimateInput, model: string): Promise<RequestEstimate & { encoding: EncodingName }> {
		const { encoding, count } = await counterFor(model);
		return { ...estimateRequestTokens({ ...input, encoding }, count), encoding };
	},

	/** Exact counts of several texts (a model-written summary, the draft being typed). */
	async countTexts(texts: string[], model: string): Promise<{ encoding: EncodingName; counts: number[] }> {
		const { encoding, count } = await counterFor(model);
		return { encoding, counts: texts.map(count) };
	},

	/** A model-written summary within `budget` tokens: unchanged if it fits, else cut at a section boundary. */
	async cutSummary(text: string, budget: number, model: string): Promise<string> {
		const { count } = await counterFor(model);
		return cutToBudget(text, budget, count);
	},

	/** The summary's fact check against the rows it replaces, and which lost facts fit the budget for adding them. */
	async checkSummary(input: FactCheckInput): Promise<CheckedSummary> {
		const check = checkFacts(input.rows, input.summary);
		if (input.addBudget <= 0 || !check.lost.length) return { ...check, added: [] };
		const { count } = await counterFor(input.model);
		return { ...check, added: factsWithin(check.lost, input.addBudget, count, leastTokens) };
	},

	/** Counts what is uncounted, plans the compaction, and writes the extractive summary if asked. */
	async prepareCompaction(input: PrepareInput): Promise<PreparedCompaction> {
		const { encoding, count } = await counterFor(input.model);
		const counts: Array<[number, number]> = [];
		const rows: CountedRow[] = input.rows.map((row) => {
			if (hasUsableCount(row, encoding)) return row as CountedRow;
			const tokens = count(costText(row));
			counts.push([row.seq, tokens]);
			return { ...row, tokens };
		});
		const options = { tailTokens: input.tailTokens, minimalTail: input.minimalTail, rewriteSummaries: input.rewriteSummaries, images: input.images };
		const plan =
			input.mode === 'summarize'
				? planSummarize(rows, options)
				: input.mode === 'micro_summarize'
					? planMicroSummarize(rows, options)
					: input.mode === 'prune_tool_results'
						? planPrune(rows, options)
						: planProviderPrune(rows, input.cleared ?? 0);
		let summary: PreparedCompaction['summary'] = null;
		if (plan && plan.kind !== 'prune_tool_results' && input.extractive) {
			const wanted = new Set(plan.summarized);
			const fit = { budget: summaryBudget(plan.removedTokens), count };
			const content = extractiveSummary(rows.filter((row) => wanted.has(row.seq)), plan.previousSummary, input.focus, fit);
			summary = { content, tokens: count(content) };
		}
		if (plan?.kind === 'prune_tool_results') {
			for (const stub of plan.stubs) stub.tokens = count(stub.content);
			const bySeq = new Map(rows.map((row) => [row.seq, row]));
			for (const image of plan.images) image.tokens = count(prunedImagesText(bySeq.get(image.seq)!));
		}
		return { encoding, counts, plan, summary };
	}
};

export type ContextApi = typeof contextApi;
