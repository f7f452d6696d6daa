// A text's sentences, as the name and instruction finders read them. Pure.

/** A line break, or the space after a sentence's end that is not an abbreviation's (the cheap test first: it fails almost everywhere). */
const SENTENCE_BREAK = /\n+|(?<=[.!?])(?<!\b(?:Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|approx|no)\.)\s+(?=[\p{Lu}\p{N}"“(])/u;

/** Sentences of a text: split at sentence ends and line breaks, list markers and quotes left out. */
export function sentences(text: string): string[] {
	return text
		.split(SENTENCE_BREAK)
		.map((part) => part.replace(/^\s*(?:[-*+>]|\d+[.)])\s+/, '').trim())
		.filter(Boolean);
}
