// What one compaction changes, built before anything is written: a summary (written by a model,
// or extractive for the offline model), pruned tool outputs, the provider's own compaction on
// demand, or the fold of a compaction the provider made on its own while answering.
import type { NewMessage } from '../db/message-verbs';
import type { MarkerFacts, MessageRow } from '../db/schema';
import { addFacts } from '../context/lost-facts-section';
import { summaryBudget } from '../context/summary-budget';
import { SUMMARY_PREAMBLE } from '../context/summary-template';
import type { CompactionKind } from '../hooks/hook-payloads';
import { isAbortError } from '../providers/abort';
import { fromProvider, OPAQUE_SUMMARY } from '../providers/native-family';
import type { ToolSchema } from '../providers/types';
import { buildRequestMessages } from './build-request';
import { foldChange, nativeChange, noticeRow, pruneChange, summaryChange, toContextRow, type CompactionChange } from './compaction-changes';
import { USER_REASONS, type CompactionDeps, type CompactionRequest, type ProviderCompaction } from './compaction-types';
import { writeSummary } from './write-summary';
import { ADD_FACTS_SHARE, checkSummaryFacts } from './summary-facts';

export interface BuiltChange {
	change: CompactionChange;
	/** The row that marks the compaction in the transcript (a summary, or a notice). */
	markerRow: NewMessage;
	/** The kind it turned out to be (a failed native compaction falls back to a summary). */
	kind: CompactionKind;
	/** For a summary written here: the tokens of what it replaces (earlier summaries included). */
	replacedTokens?: number;
	/** The summary's fact check (a summary written here: with any lost facts already appended). */
	facts?: MarkerFacts;
}

/** Tokens the kept tail may use: asked for by the user, everything but the last exchange goes. */
function tailTokens(deps: CompactionDeps, request: CompactionRequest): number {
	return request.tailTokens ?? (USER_REASONS.has(request.reason) ? 0 : deps.settings.tailTokens);
}

/** Counts the text of new rows, so the estimate and the next compaction need not. */
async function countRows(deps: CompactionDeps, rows: NewMessage[]): Promise<void> {
	if (!rows.length) return;
	const { counts, encoding } = await deps.counter.countTexts(rows.map((row) => row.content), deps.model);
	rows.forEach((row, i) => Object.assign(row, { tokens: counts[i], encoding }));
}

export async function buildChange(deps: CompactionDeps, request: CompactionRequest, kind: CompactionKind, context: MessageRow[], at: number): Promise<BuiltChange | null> {
	if (request.native) return foldProviderCompaction(deps, request.native, context, at);
	if (kind === 'provider_native') {
		try {
			return await nativeCompaction(deps, request, context, at);
		} catch (error) {
			if (isAbortError(error) || request.signal?.aborted) throw error;
			// The provider could not compact (an unsupported model, a refusal): summarise here instead.
			console.warn('[compaction] the provider could not compact; summarising instead:', error);
			kind = 'summarize';
		}
	}
	const pruning = kind === 'prune_tool_results';
	// Where no image is sent (the offline model, a text-only one) there is nothing to stop sending.
	const images = deps.request.imageApi && deps.request.imageApi !== 'offline' ? request.images : undefined;
	if (pruning && request.images === 'only' && !images) return null;
	const summarizing: 'summarize' | 'micro_summarize' = kind === 'micro_summarize' ? kind : 'summarize';
	const writer = deps.summarizer ?? { provider: deps.provider, model: deps.model, windowTokens: deps.windowTokens };
	const prepared = await deps.counter.prepareCompaction({
		mode: request.cleared !== undefined ? 'provider_prune' : pruning ? kind : summarizing,
		rows: context.map(toContextRow),
		model: deps.model,
		tailTokens: tailTokens(deps, request),
		minimalTail: request.minimalTail,
		rewriteSummaries: request.replaceNative,
		extractive: writer.provider.offline,
		focus: request.focus,
		cleared: request.cleared,
		...(pruning && images ? { images } : {})
	});
	const plan = prepared.plan;
	if (!plan) return null;
	if (pruning) {
		if (plan.kind !== 'prune_tool_results') return null;
		const stubTokens = plan.stubs.reduce((sum, stub) => sum + (stub.tokens ?? 0), 0);
		if (request.reason === 'proactive_prune' && plan.removedTokens - stubTokens < deps.settings.pruneMinReclaim) return null;
		const notice = noticeRow(pruneNotice(plan.stubs.length, plan.images.length), at);
		return { change: pruneChange(context, plan, notice, prepared.encoding, at), markerRow: notice, kind };
	}
	if (plan.kind === 'prune_tool_results') return null;
	const budget = summaryBudget(plan.removedTokens);
	let text = prepared.summary?.content;
	if (!text) {
		const counted = new Map(prepared.counts);
		const wanted = new Set(plan.summarized);
		const rows = context.filter((row) => wanted.has(row.seq)).map((row) => ({ ...toContextRow(row), tokens: row.tokens ?? counted.get(row.seq) }));
		deps.onProgress?.({ phase: 'summarizing', chars: 0 });
		const cut = (written: string) => deps.counter.cutSummary(written, budget, deps.model);
		text = await writeSummary(writer, rows, plan.previousSummary, { focus: request.focus, signal: request.signal, onProgress: deps.onProgress, budget, cut });
	}
	// What the summary lost is appended on its own only when nobody asked for this compaction: a user who did sees the list and decides.
	const replaced = new Set(plan.removed);
	const addBudget = deps.settings.addLostFacts && !USER_REASONS.has(request.reason) ? Math.floor(budget * ADD_FACTS_SHARE) : 0;
	const { facts, added } = await checkSummaryFacts(deps, context.filter((row) => replaced.has(row.seq)), text, addBudget);
	text = addFacts(text, added);
	const summary: NewMessage = { id: crypto.randomUUID(), role: 'user', kind: 'summary', content: `${SUMMARY_PREAMBLE}\n\n${text}`, status: 'complete', created_at: at };
	await countRows(deps, [summary]);
	return { change: summaryChange(context, plan, summary), markerRow: summary, kind, replacedTokens: plan.removedTokens, facts };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What the transcript says a pruning did: "3 old tool outputs pruned; 2 older messages' images no longer sent." */
function pruneNotice(outputs: number, images: number): string {
	const said = [
		...(outputs ? [`${plural(outputs, 'old tool output', 'old tool outputs')} pruned`] : []),
		...(images ? [`the images of ${plural(images, 'older message', 'older messages')} no longer sent (still shown here)`] : [])
	].join('; ');
	return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
}

/**
 * The provider's compaction on demand: the rows before the kept tail go to it, as the
 * conversation would send them, and what it returns takes their place.
 */
async function nativeCompaction(deps: CompactionDeps, request: CompactionRequest, context: MessageRow[], at: number): Promise<BuiltChange | null> {
	if (!deps.provider.compact) throw new Error(`${deps.provider.label} has no compaction of its own.`);
	const prepared = await deps.counter.prepareCompaction({ mode: 'summarize', rows: context.map(toContextRow), model: deps.model, tailTokens: tailTokens(deps, request), minimalTail: request.minimalTail });
	if (!prepared.plan || prepared.plan.kind === 'prune_tool_results') return null;
	const removed = new Set(prepared.plan.removed);
	const compacted = context.filter((row) => removed.has(row.seq));
	const messages = buildRequestMessages({ systemPrompt: deps.request.systemPrompt, rows: compacted, userSeq: -1, injected: '', provider: deps.provider.id });
	deps.onProgress?.({ phase: 'summarizing', chars: 0 });
	// The same tools as the conversation: the provider's summarizer reads them.
	const tools = deps.request.toolSchemas?.length ? (deps.request.toolSchemas as ToolSchema[]) : undefined;
	const returned = (await deps.provider.compact({ model: deps.model, messages, tools, signal: request.signal })).map((message) =>
		message.native ? { ...message, native: fromProvider(message.native, deps.provider.id) } : message
	);
	const change = nativeChange(context, compacted, returned, at, prepared.plan.firstKeptSeq);
	if (!change) return null;
	await countRows(deps, change.inserted.map((place) => place.row));
	const summary = change.inserted.find((place) => place.row.kind === 'summary')?.row;
	if (summary) return { change, markerRow: summary, kind: 'provider_native', facts: await checkReadable(deps, compacted, summary) };
	const notice = noticeRow('The provider compacted the conversation.', at);
	change.inserted.unshift({ before: change.inserted[0]?.before ?? null, row: notice });
	return { change, markerRow: notice, kind: 'provider_native' };
}

/**
 * The provider compacted while answering: its item replaces everything the request carried
 * before the question it answered, which stays after it (readable, and sent again).
 */
async function foldProviderCompaction(deps: CompactionDeps, provided: ProviderCompaction, context: MessageRow[], at: number): Promise<BuiltChange> {
	const question = context.findLast((row) => row.role === 'user' && row.kind === 'message');
	const summary: NewMessage = {
		id: crypto.randomUUID(),
		role: 'user',
		kind: 'summary',
		content: provided.summary ?? OPAQUE_SUMMARY,
		status: 'complete',
		created_at: at,
		native: provided.native
	};
	await countRows(deps, [summary]);
	const change = foldChange(context, summary, question?.seq ?? null);
	const removed = new Set(change.removed);
	return { change, markerRow: summary, kind: 'provider_native', facts: await checkReadable(deps, context.filter((row) => removed.has(row.seq)), summary) };
}

/** The fact check of a summary the provider wrote, when a person can read it (nothing is added: it is sent back as it came). */
async function checkReadable(deps: CompactionDeps, replaced: readonly MessageRow[], summary: NewMessage): Promise<MarkerFacts | undefined> {
	if (summary.native?.opaque || summary.content === OPAQUE_SUMMARY || !summary.content.trim()) return undefined;
	return (await checkSummaryFacts(deps, replaced, summary.content)).facts;
}
