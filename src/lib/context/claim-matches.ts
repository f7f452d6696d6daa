// How the extractor runs its patterns: each takes its matches out of the text before the next
// looks, so a span is one fact, of the most specific class that reads it. Pure.

/**
 * Runs `pattern` (global) over `text`, adding each match `take` accepts, and blanks what it
 * took (so no later pattern reads it again). A text without `needs` in it is passed over: most
 * rows hold no @, backtick or slash, and a pattern costs a pass over every row.
 */
export function claim(text: string, pattern: RegExp, take: (match: string) => boolean, needs?: string | RegExp): string {
	if (needs !== undefined && !(typeof needs === 'string' ? text.includes(needs) : needs.test(text))) return text;
	const parts: string[] = [];
	let from = 0;
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		const found = match[0];
		if (!found) {
			pattern.lastIndex++;
			continue;
		}
		if (!take(found)) continue;
		parts.push(text.slice(from, match.index), ' '.repeat(found.length));
		from = match.index + found.length;
	}
	if (from === 0) return text;
	parts.push(text.slice(from));
	return parts.join('');
}
