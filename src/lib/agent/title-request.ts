// The request that names a session after its first answer, and what is kept of the model's
// reply. Only the first message and the first answer go, each cut short: a title needs no more,
// and the request stays cheap. Pure.
import { cleanTitle } from '../db/clean-title';
import type { ChatMessage } from '../providers/types';

/** The instructions of a title request (the test provider knows a title request by their first words). */
export const TITLE_INSTRUCTIONS =
	'Write a title for the conversation below: at most six words, in the language of the conversation, naming its subject. Answer with the title alone: no quotes, no Markdown, no full stop.';

/** Characters of the first message, and of the first answer, that the request carries. */
export const TITLE_EXCERPT_CHARS = 1_500;
/** The longest title kept (cut at a word, with an ellipsis). */
export const MAX_TITLE_CHARS = 80;
/** Tokens the model may write: a title, with room for a model that adds a word or two. */
export const TITLE_MAX_TOKENS = 60;

function excerpt(text: string): string {
	const trimmed = text.trim();
	return trimmed.length <= TITLE_EXCERPT_CHARS ? trimmed : `${trimmed.slice(0, TITLE_EXCERPT_CHARS).trimEnd()}…`;
}

/** The messages of the title request for a conversation that began with `question` and `answer`. */
export function titleRequestMessages(question: string, answer: string): ChatMessage[] {
	return [
		{ role: 'system', content: TITLE_INSTRUCTIONS },
		{ role: 'user', content: `First message:\n${excerpt(question)}\n\nFirst answer:\n${excerpt(answer)}` }
	];
}

/** Quotes a model may put around a title, in any script's habit. */
const QUOTES = /^["'“”‘’«»„‚`]+|["'“”‘’«»„‚`]+$/g;

/**
 * The title in a model's reply, or null when nothing usable is left: its first line with text,
 * without Markdown (headings, emphasis, code, links), a "Title:" label, a slash command, quotes,
 * control characters or closing punctuation, at most MAX_TITLE_CHARS long.
 */
export function cleanModelTitle(reply: string): string | null {
	// A reasoning model's thoughts are no part of its answer.
	const answer = reply.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '');
	const line = answer.split(/\r?\n/).find((l) => l.trim() && !/^\s*(```|~~~)/.test(l)) ?? '';
	let title = cleanTitle(line)
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/^\s*(#{1,6}\s+|[-*+>]\s+|\d+[.)]\s+)+/, '')
		.replace(/(\*\*|__|~~|\*|_|`)(?=\S)([\s\S]*?\S)\1/g, '$2')
		.replace(/[*_`~]+/g, (marks) => (marks.length > 1 ? '' : marks))
		.replace(/^\s*\/[a-z0-9_-]+\s+/i, '')
		.replace(/^\s*title\s*[:：-]\s*/i, '')
		.trim();
	for (let previous = ''; previous !== title; ) {
		previous = title;
		title = title.replace(QUOTES, '').replace(/[\s.!?:;,。！？…]+$/u, '').trim();
	}
	title = title.replace(/\s+/g, ' ');
	if (!title) return null;
	if (title.length <= MAX_TITLE_CHARS) return title;
	const cut = title.slice(0, MAX_TITLE_CHARS - 1);
	const space = cut.lastIndexOf(' ');
	return `${(space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
