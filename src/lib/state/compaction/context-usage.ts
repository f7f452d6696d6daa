// What the next request costs, part by part, in the words both the meter's details and /usage
// use, so the two always say the same. Pure.
import type { RequestTotals } from '../../context/count-tokens';
import type { CompactionMarker, MarkerFacts, TitledBy } from '../../db/schema';
import { COMPACTION_REASON_LABELS } from './compaction-words';

export interface ContextUsage {
	model: string;
	/** What the meter shows: the sum of the parts (scaled, like them, by the provider's own count when it gave one). */
	total: number;
	windowTokens: number;
	/** Compaction starts above this share of the window (0–1). */
	threshold: number;
	parts: RequestTotals;
	/** Rows of the conversation in the request. */
	rows: number;
	ratio?: number;
}

export interface UsagePart {
	label: string;
	tokens: number;
}

/** The name of what every request costs before its first message. */
export const FIXED_PART = 'System prompt and tools';

/**
 * The parts in the order a request holds them, adding up to the total exactly; the overhead of
 * each message goes with it (the system prompt's with the fixed part).
 */
export function usageParts(usage: ContextUsage): UsagePart[] {
	const { parts } = usage;
	return [
		{ label: FIXED_PART, tokens: parts.systemPrompt + parts.systemOverhead + parts.toolSchemas },
		{ label: `Messages (${usage.rows.toLocaleString('en')})`, tokens: parts.messages + parts.overhead },
		{ label: 'Plugin context', tokens: parts.injected },
		{ label: 'Kept for the answer', tokens: parts.reservedOutput }
	];
}

/** "3,217 of 32,000 tokens (10%; compaction starts at 80%)". */
export function describeTotal(usage: ContextUsage): string {
	const percent = Math.round((usage.total / usage.windowTokens) * 100);
	return `${usage.total.toLocaleString('en')} of ${usage.windowTokens.toLocaleString('en')} tokens (${percent}%; compaction starts at ${Math.round(usage.threshold * 100)}%)`;
}

/** The line that says the provider's own count adjusted this app's, if it did. */
export function describeRatio(usage: ContextUsage): string {
	if (!usage.ratio || Math.abs(usage.ratio - 1) < 0.005) return '';
	return `Adjusted to the provider's own count: ×${usage.ratio.toFixed(2)} on everything but the answer's space.`;
}

/** How many messages a compaction took out of the context, in the one wording used everywhere. */
export function describeFolded(count: number | null): string {
	if (!count) return '';
	return `${count.toLocaleString('en')} message${count === 1 ? '' : 's'} folded`;
}

/** One compaction: "you asked for it · 4,000 → 1,200 tokens · 6 messages folded". */
export function describeCompaction(marker: CompactionMarker): string {
	const tokens =
		marker.after_tokens === null
			? `${marker.before_tokens.toLocaleString('en')} tokens before`
			: `${marker.before_tokens.toLocaleString('en')} → ${marker.after_tokens.toLocaleString('en')} tokens`;
	return [COMPACTION_REASON_LABELS[marker.reason], tokens, describeFolded(marker.messages_removed), marker.facts && describeFacts(marker.facts)].filter(Boolean).join(' · ');
}

/** A summary's fact check in a few words: "kept 18 of 23 facts, 3 added" (the added ones were lost, then appended). */
export function describeFacts(facts: MarkerFacts): string {
	const added = facts.lost.filter((fact) => fact.added).length;
	return `kept ${facts.kept.toLocaleString('en')} of ${facts.total.toLocaleString('en')} facts${added ? `, ${added.toLocaleString('en')} added` : ''}`;
}

/** The fact checks of a session's compactions in effect, added up: facts found, held by the summaries (added ones included), and still lost. */
export function sumFacts(markers: readonly CompactionMarker[]): { total: number; held: number; lost: number } {
	const sum = { total: 0, held: 0, lost: 0 };
	for (const { facts } of markers) {
		if (!facts) continue;
		const added = facts.lost.filter((fact) => fact.added).length;
		sum.total += facts.total;
		sum.held += facts.kept + added;
		sum.lost += facts.lost_count - added;
	}
	return sum;
}

/** "Title written by gpt-5-mini (a request of its own, not part of the conversation): 212 tokens in, 6 out". */
export function describeTitledBy(titledBy: TitledBy): string {
	const usage = titledBy.usage ? `: ${titledBy.usage.input_tokens.toLocaleString('en')} tokens in, ${titledBy.usage.output_tokens.toLocaleString('en')} out` : '';
	return `Title written by ${titledBy.model} (a request of its own, not part of the conversation)${usage}`;
}

/**
 * /usage's answer: the same total and parts as the meter's details (and `kept`, the line on the
 * messages kept in context, and `title`, the one on the title request, if any).
 */
export function describeUsage(usage: ContextUsage, counts: { stored: number; compactions: number; facts?: ReturnType<typeof sumFacts>; kept?: string; title?: string }): string {
	const facts = counts.facts?.total ? counts.facts : null;
	return [
		`Model: ${usage.model}`,
		`Messages: ${counts.stored.toLocaleString('en')} stored, ${usage.rows.toLocaleString('en')} in context`,
		`Estimated context: ${describeTotal(usage)}`,
		...usageParts(usage).map((part) => `  ${part.label}: ${part.tokens.toLocaleString('en')}`),
		counts.kept,
		describeRatio(usage),
		`Compactions in this session: ${counts.compactions}`,
		facts && `Facts in compacted messages: ${facts.held.toLocaleString('en')} of ${facts.total.toLocaleString('en')} held by the summaries, ${facts.lost.toLocaleString('en')} lost`,
		counts.title
	]
		.filter(Boolean)
		.join('\n');
}
