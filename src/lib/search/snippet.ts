// Where matched terms occur in a text, and the short excerpt around the first one that a
// search result shows. Words are found as the tokenizer finds them, so what is highlighted is
// exactly what matched: a whole word for a (prefix) match, two characters for a CJK pair.
import { tokenize } from './tokenize';

/** [start, end) offsets in the text. */
export type Mark = [number, number];

export interface Snippet {
	text: string;
	marks: Mark[];
}

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Characters a snippet shows, and how many of them come before the first match. */
const SNIPPET_CHARS = 160;
const LEAD_CHARS = 50;

/** Offsets of every occurrence of `terms` (index terms: folded words, CJK pairs) in `text`. */
export function findMarks(text: string, terms: ReadonlySet<string>, limit = 50): Mark[] {
	const marks: Mark[] = [];
	if (!terms.size) return marks;
	for (const match of text.matchAll(WORD)) {
		const word = match[0];
		const start = match.index;
		if (!CJK.test(word)) {
			if (tokenize(word).some((term) => terms.has(term))) marks.push([start, start + word.length]);
		} else {
			// Per character: a pair that matched marks both of its characters.
			const chars = [...word];
			const offsets: number[] = [];
			let at = start;
			for (const char of chars) {
				offsets.push(at);
				at += char.length;
			}
			offsets.push(at);
			for (let i = 0; i < chars.length; i++) {
				const pair = chars[i] + (chars[i + 1] ?? '');
				const single = chars.length === 1 && terms.has(chars[i].toLowerCase());
				if (single || (i + 1 < chars.length && terms.has(pair.toLowerCase()))) {
					const from = offsets[i];
					const to = offsets[Math.min(i + 2, chars.length)];
					const last = marks.at(-1);
					if (last && last[1] >= from) last[1] = Math.max(last[1], to);
					else marks.push([from, to]);
				}
			}
		}
		if (marks.length >= limit) break;
	}
	return marks;
}

/** About SNIPPET_CHARS of `text` around its first match, with the matches inside it. */
export function makeSnippet(text: string, terms: ReadonlySet<string>): Snippet {
	const flat = text.replace(/\s+/g, ' ');
	const marks = findMarks(flat, terms);
	const first = marks[0]?.[0] ?? 0;
	let start = Math.max(0, first - LEAD_CHARS);
	if (start > 0) {
		const space = flat.indexOf(' ', start);
		if (space >= 0 && space < first) start = space + 1;
	}
	const end = Math.min(flat.length, start + SNIPPET_CHARS);
	const lead = start > 0 ? '…' : '';
	const shift = lead.length - start;
	return {
		text: lead + flat.slice(start, end) + (end < flat.length ? '…' : ''),
		marks: marks.filter(([from, to]) => from >= start && to <= end).map(([from, to]) => [from + shift, to + shift])
	};
}
