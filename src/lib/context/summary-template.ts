// The fixed section template every compaction summary follows, whoever writes it (a model or
// the extractive summarizer), and the prompt that asks a model to write or update one. Pure.
import type { ChatMessage } from '../providers/types';
import { attachedLine, costText, type ContextRow } from './context-rows';

export const SUMMARY_SECTIONS = [
	'Goal',
	'Constraints',
	'Decisions',
	'Done',
	'In progress',
	'Files and references',
	'Open questions'
] as const;

export type SummarySection = (typeof SUMMARY_SECTIONS)[number];
export type SummarySections = Record<SummarySection, string[]>;

/** How a summary introduces itself in the request, so the model knows what it is reading. */
export const SUMMARY_PREAMBLE = 'Summary of the earlier conversation (it was compacted to save context):';

export function emptySections(): SummarySections {
	return Object.fromEntries(SUMMARY_SECTIONS.map((name) => [name, []])) as unknown as SummarySections;
}

export function formatSummary(sections: SummarySections): string {
	return SUMMARY_SECTIONS.map((name) => {
		const items = sections[name];
		return `## ${name}\n${items.length ? items.map((item) => `- ${item}`).join('\n') : '- (none)'}`;
	}).join('\n\n');
}

/** Reads a summary written with the template back into sections (unknown headings are ignored). */
export function parseSummary(text: string): SummarySections {
	const sections = emptySections();
	let current: SummarySection | null = null;
	for (const line of text.split('\n')) {
		const heading = /^#{1,6}\s+(.+?)\s*$/.exec(line);
		if (heading) {
			current = SUMMARY_SECTIONS.find((name) => name.toLowerCase() === heading[1].toLowerCase()) ?? null;
			continue;
		}
		const item = /^\s*[-*]\s+(.*\S)\s*$/.exec(line);
		if (current && item && item[1] !== '(none)') sections[current].push(item[1]);
	}
	return sections;
}

/** One line per row, as the summarizing model reads the part of the conversation it replaces. */
export function transcriptText(rows: readonly ContextRow[]): string {
	return rows
		.map((row) => {
			const who = row.role === 'tool' ? `tool result${row.tool_call_id ? ` ${row.tool_call_id}` : ''}` : row.role;
			// Its images and files by name (never their bytes), so the summary can say they existed.
			const said = [costText({ content: row.content, tool_calls: row.tool_calls }), attachedLine(row)].filter(Boolean).join('\n');
			return `[${who}]\n${said}`;
		})
		.join('\n\n');
}

const INSTRUCTIONS = `You compact a conversation between a user and an AI assistant so that the assistant can continue it with less context.
Write a summary with exactly these Markdown headings, in this order: ${SUMMARY_SECTIONS.map((s) => `"## ${s}"`).join(', ')}.
Under each heading write short bullet points ("- …"), or "- (none)". Keep every fact the assistant needs to continue: the user's goal and constraints, decisions taken and why, what is done, what is in progress, file names, identifiers, URLs, numbers and open questions. Do not invent anything. Write only the summary.`;

/** About how many words a budget of tokens buys in English prose (a token is about ¾ of a word). */
const wordsFor = (tokens: number) => Math.max(50, Math.round((tokens * 0.75) / 10) * 10);

/**
 * The request that asks a model to write (or update) a summary of `rows`, in at most `budget`
 * tokens. An earlier summary is updated rather than summarised again; `focus` says what the
 * user wants kept above all.
 */
export function summaryRequest(rows: readonly ContextRow[], previousSummary: string | null, focus = '', budget?: number): ChatMessage[] {
	const parts = [
		previousSummary
			? `Here is the summary so far. Update it with the new part of the conversation below: keep what still holds, add what is new, and drop what was superseded.\n\n<summary>\n${previousSummary}\n</summary>`
			: 'Summarise the conversation below.',
		`<conversation>\n${transcriptText(rows)}\n</conversation>`
	];
	if (focus.trim()) parts.push(`Focus above all on: ${focus.trim()}`);
	if (budget) parts.push(`Keep the whole summary under ${budget.toLocaleString('en')} tokens (about ${wordsFor(budget).toLocaleString('en')} words): it replaces the conversation, so it must be much shorter. Prefer the facts the assistant needs to continue over detail.`);
	return [
		{ role: 'system', content: INSTRUCTIONS },
		{ role: 'user', content: parts.join('\n\n') }
	];
}
