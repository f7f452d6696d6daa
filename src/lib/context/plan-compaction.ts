// Compaction planning: which rows of the live context a compaction removes, which it keeps,
// and what it feeds the summary. Pure over counted rows, so it runs in the worker and in Node.
import { costText, PRUNED_STUB_PREFIX, type CountedRow } from './context-rows';
import { keptSeqs } from './pinned-rows';

export interface PlanOptions {
	/** Tokens the kept tail may use; the last user and assistant messages are kept regardless. */
	tailTokens: number;
	/** Keep no more than the last user message and what follows it (when even that must shrink). */
	minimalTail?: boolean;
	/** Plan even when only earlier summaries lie before the tail (they are then rewritten). */
	rewriteSummaries?: boolean;
	/** Pruning: also stop sending older images ('with'), or only that ('only'). */
	images?: ImagePruning;
}

export type ImagePruning = 'with' | 'only';

/**
 * A summary plan: `removed` leave the context, a summary takes their place before the tail
 * (after any summary the user edited, which stays), or before the first message the user keeps
 * in context among them: those stay too, in their order, between the summary and the tail.
 */
export interface SummaryPlan {
	kind: 'summarize' | 'micro_summarize';
	/** Seqs of every row that leaves the context (an earlier summary included, unless the user edited it). */
	removed: number[];
	/** Seqs of the rows whose text the summary must cover (not the earlier summary: that is updated). */
	summarized: number[];
	previousSummary: string | null;
	/** The row the summary goes right before (the first pinned one it would have covered, else the tail's first), or null when it ends the context. */
	firstKeptSeq: number | null;
	removedTokens: number;
}

const isQuestion = (row: CountedRow) => row.role === 'user' && row.kind === 'message';

/**
 * Where the recent part of the context starts: it fits `tailTokens` where it can, always holds
 * the last user and the last assistant message, and never starts at a tool result (its call
 * stays with it). Tool-output pruning leaves this part alone.
 */
export function findRecentStart(rows: readonly CountedRow[], tailTokens: number, minimal = false): number {
	let start = rows.length;
	let used = 0;
	while (!minimal && start > 0 && used + rows[start - 1].tokens <= tailTokens) {
		start -= 1;
		used += rows[start].tokens;
	}
	const lastUser = rows.findLastIndex(isQuestion);
	const lastAssistant = rows.findLastIndex((row) => row.role === 'assistant');
	for (const index of minimal && lastUser >= 0 ? [lastUser] : [lastUser, lastAssistant]) if (index >= 0) start = Math.min(start, index);
	while (start > 0 && rows[start].role === 'tool') start -= 1;
	return start;
}

/**
 * Where the tail a summary keeps starts: the recent part, from the user message it begins
 * with, so an answer (its tool calls and results included) is never kept without the question
 * it answers. Only an answer whose question an earlier summary already holds may start it.
 */
export function findTailStart(rows: readonly CountedRow[], tailTokens: number, minimal = false): number {
	let start = findRecentStart(rows, tailTokens, minimal);
	const question = rows.findLastIndex((row, index) => index <= start && isQuestion(row));
	if (question >= 0) start = question;
	// An earlier summary is never part of a tail: it is either updated or kept as the head.
	while (start < rows.length && rows[start].kind === 'summary') start += 1;
	return start;
}

/**
 * Everything before `end` leaves for the new summary, except a summary the user edited: it
 * stays as it is, ahead of the new one, so their words are never rewritten or dropped. So do the
 * messages the user keeps in context: the summary goes right before the first of them.
 */
function summaryPlan(kind: SummaryPlan['kind'], rows: readonly CountedRow[], end: number, firstKept: CountedRow | undefined, rewrite = false): SummaryPlan | null {
	const kept = keptSeqs(rows);
	const before = rows.slice(0, end);
	const middle = before.filter((row) => !(row.kind === 'summary' && row.edited) && !kept.has(row.seq));
	const summarized = middle.filter((row) => row.kind !== 'summary');
	if (!summarized.length && !(rewrite && middle.length)) return null;
	const previous = middle.filter((row) => row.kind === 'summary');
	return {
		kind,
		removed: middle.map((row) => row.seq),
		summarized: summarized.map((row) => row.seq),
		previousSummary: previous.length ? previous.map((row) => row.content).join('\n\n') : null,
		firstKeptSeq: (before.find((row) => kept.has(row.seq)) ?? firstKept)?.seq ?? null,
		removedTokens: middle.reduce((sum, row) => sum + row.tokens, 0)
	};
}

/** Full compaction: everything before the tail becomes one summary (updating an earlier one). */
export function planSummarize(rows: readonly CountedRow[], options: PlanOptions): SummaryPlan | null {
	const start = findTailStart(rows, options.tailTokens, options.minimalTail);
	return summaryPlan('summarize', rows, start, rows[start], options.rewriteSummaries);
}

/**
 * Micro-compaction: the oldest exchange after the summary (a user message and everything up to
 * the next one) is folded into the rolling summary, if it lies wholly before the tail. Messages
 * the user keeps in context are passed over, and stay.
 */
export function planMicroSummarize(rows: readonly CountedRow[], options: PlanOptions): SummaryPlan | null {
	const tailStart = findTailStart(rows, options.tailTokens);
	const kept = keptSeqs(rows);
	const first = rows.findIndex((row) => row.kind !== 'summary' && !kept.has(row.seq));
	if (first < 0 || first >= tailStart) return null;
	let end = first + 1;
	while (end < rows.length && !(rows[end].role === 'user' && rows[end].kind === 'message')) end += 1;
	if (end > tailStart) return null;
	return summaryPlan('micro_summarize', rows, end, rows[end]);
}

export interface PruneStub {
	seq: number;
	tool_call_id?: string;
	content: string;
	/** Tokens of the stub, once counted (the worker fills this in). */
	tokens?: number;
}

/** A row whose images stop being sent: a copy of it takes its place, with a note for each image. */
export interface ImagePrune {
	seq: number;
	/** Tokens of the copy's text, notes included, once counted (the worker fills this in). */
	tokens?: number;
}

export interface PrunePlan {
	kind: 'prune_tool_results';
	stubs: PruneStub[];
	/** Tokens the pruned outputs held. */
	removedTokens: number;
	/** Rows whose images stop being sent (their Blobs stay, and the transcript still shows them). */
	images: ImagePrune[];
}

/** Outputs smaller than this are not worth a stub. */
const MIN_PRUNE_TOKENS = 64;

/** A prune plan that stubs `pruned`, naming each call's tool (looked up in `rows`). */
function stubbing(rows: readonly CountedRow[], pruned: readonly CountedRow[]): PrunePlan | null {
	if (!pruned.length) return null;
	const names = new Map<string, string>();
	for (const row of rows) for (const call of row.tool_calls ?? []) names.set(call.id, call.name);
	return {
		kind: 'prune_tool_results',
		images: [],
		stubs: pruned.map((row) => ({
			seq: row.seq,
			tool_call_id: row.tool_call_id,
			content: pruneStubText(names.get(row.tool_call_id ?? '') ?? 'a tool', row.tokens)
		})),
		removedTokens: pruned.reduce((sum, row) => sum + row.tokens, 0)
	};
}

const isUnprunedResult = (row: CountedRow) => row.role === 'tool' && !row.content.startsWith(PRUNED_STUB_PREFIX);

/**
 * Tool-output pruning: old tool results (before the tail) are replaced by one-line stubs that
 * keep their call id, so the request stays valid. No model call. What the user keeps in context
 * (a pinned answer's tool results, a pinned message's images) is sent as it is.
 */
export function planPrune(rows: readonly CountedRow[], options: PlanOptions): PrunePlan | null {
	const tailStart = findRecentStart(rows, options.tailTokens);
	const kept = keptSeqs(rows);
	const outputs = options.images === 'only' ? [] : rows.slice(0, tailStart).filter((row) => isUnprunedResult(row) && row.tokens >= MIN_PRUNE_TOKENS && !kept.has(row.seq));
	const stubbed = new Set(outputs.map((row) => row.seq));
	const images = options.images ? findOlderImages(rows).filter((row) => !stubbed.has(row.seq) && !kept.has(row.seq)) : [];
	if (!images.length) return stubbing(rows, outputs);
	const plan: PrunePlan = stubbing(rows, outputs) ?? { kind: 'prune_tool_results', stubs: [], removedTokens: 0, images: [] };
	return { ...plan, images: images.map((row) => ({ seq: row.seq })) };
}

const showsImages = (row: CountedRow) => row.attached?.some((item) => item.type === 'image') ?? false;

/**
 * The rows whose images are still sent but are older than the latest turn that shows any (a
 * turn: a user message and everything after it): the model keeps seeing the images of that
 * turn, the one the conversation is most likely about, and only a note of the others.
 */
export function findOlderImages(rows: readonly CountedRow[]): CountedRow[] {
	const latest = rows.findLastIndex(showsImages);
	if (latest < 0) return [];
	const turn = rows.findLastIndex((row, index) => index <= latest && isQuestion(row));
	return rows.slice(0, Math.max(0, turn)).filter((row) => showsImages(row) && !row.images_pruned);
}

/** The text a row costs once its images are no longer sent (a note stands for each). */
export function prunedImagesText(row: CountedRow): string {
	return costText({ ...row, images_pruned: true });
}

export function pruneStubText(toolName: string, tokens: number): string {
	return `${PRUNED_STUB_PREFIX}: ${tokens.toLocaleString('en')} tokens of output from ${toolName} were removed to save context. Call the tool again if you need it.]`;
}

/**
 * The provider's own compaction dropped the oldest `count` tool results from its context:
 * the same results are stubbed here, so the next request matches what the provider kept.
 */
export function planProviderPrune(rows: readonly CountedRow[], count: number): PrunePlan | null {
	return stubbing(rows, rows.filter(isUnprunedResult).slice(0, Math.max(0, count)));
}
