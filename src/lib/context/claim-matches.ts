// How the extractor runs its patterns: each takes its matches out of the text before the next
// looks, so a span is one fact, of the most specific class that reads it. Pure.

/** The part of a text a fact takes, from `from` up to `to`: more than the match when the fact begins before it. */
export type Span = readonly [from: number, to: number];

/** Strings of spaces by length: a claimed fact is blanked with one. */
const blanks = new Map<number, string>();

function blank(length: number): string {
	let spaces = blanks.get(length);
	if (spaces === undefined) blanks.set(length, (spaces = ' '.repeat(length)));
	return spaces;
}

/**
 * Runs `pattern` (global) over `text`, adding each match `take` accepts, and blanks what it
 * took (so no later pattern reads it again): the match, or the span `take` returns. A text
 * without `needs` in it is passed over: most rows hold no @, backtick or slash, and a pattern
 * costs a pass over every row.
 */
export function claim(text: string, pattern: RegExp, take: (match: string, at: number, text: string) => boolean | Span, needs?: string | RegExp): string {
	if (needs !== undefined && !(typeof needs === 'string' ? text.includes(needs) : needs.test(text))) return text;
	// Made at the first match: most patterns find nothing in most rows.
	let parts: string[] | null = null;
	let from = 0;
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		const found = match[0];
		if (!found) {
			pattern.lastIndex++;
			continue;
		}
		const taken = take(found, match.index, text);
		if (!taken) continue;
		const start = taken === true ? match.index : Math.max(taken[0], from);
		const end = taken === true ? match.index + found.length : taken[1];
		(parts ??= []).push(text.slice(from, start), blank(end - start));
		from = end;
		if (pattern.lastIndex < end) pattern.lastIndex = end;
	}
	if (!parts) return text;
	parts.push(text.slice(from));
	return parts.join('');
}
