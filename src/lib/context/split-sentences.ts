// A text's sentences, as the name and instruction finders read them: split into sentences, or
// asked where one begins and whether one ends between two words. Pure.

/**
 * A line break, or the space after a sentence's end before a capital, a digit, a quote or a
 * bracket. Read without the Unicode flag, which makes a pattern several times slower: a
 * character past ASCII after the space is checked on its own, as is an abbreviation's dot.
 */
const SENTENCE_BREAK = /\n+|[.!?]\s+(?=[A-Z0-9"(\u0080-\uffff])/g;
const STARTS_SENTENCE = /^[\p{Lu}\p{N}“]/u;
const ABBREVIATION = /\b(?:Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|vs|etc|e\.g|i\.e|approx|no)$/;
const LIST_MARKER = /^\s*(?:[-*+>]|\d+[.)])\s+/;

/** Sentences of a text: split at sentence ends and line breaks, list markers and quotes left out. */
export function sentences(text: string): string[] {
	const said: string[] = [];
	let from = 0;
	SENTENCE_BREAK.lastIndex = 0;
	for (let found = SENTENCE_BREAK.exec(text); found; found = SENTENCE_BREAK.exec(text)) {
		const after = found.index + found[0].length;
		if (text[found.index] !== '\n' && !endsHere(text, found.index, after)) {
			// Not a sentence's end; a line break in its space still is one.
			SENTENCE_BREAK.lastIndex = found.index + 1;
			continue;
		}
		// A sentence keeps the mark that ends it.
		addSentence(said, text.slice(from, text[found.index] === '\n' ? found.index : found.index + 1));
		from = after;
	}
	addSentence(said, text.slice(from));
	return said;
}

/** Whether the mark at `at`, its space running to `after`, ends a sentence: not before a character past ASCII that opens none, nor an abbreviation's dot. */
function endsHere(text: string, at: number, after: number): boolean {
	if (text.charCodeAt(after) >= 0x80 && !STARTS_SENTENCE.test(text.slice(after, after + 2))) return false;
	return !(text[at] === '.' && ABBREVIATION.test(text.slice(Math.max(0, at - 6), at)));
}

function addSentence(said: string[], part: string): void {
	const sentence = part.replace(LIST_MARKER, '').trim();
	if (sentence) said.push(sentence);
}

const isLetterOrDigit = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const IS_LETTER_OR_DIGIT = /^[\p{L}\p{N}]/u;
/** Whether a character code is a space, as `\s` reads one. */
export const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;

/** Whether the character at `at` begins a word: a letter or a digit. */
function beginsWord(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	return code < 0x80 ? isLetterOrDigit(code) : IS_LETTER_OR_DIGIT.test(text.slice(at, at + 2));
}

/** Whether a sentence may open at `at`: a capital, a digit, a quote or a bracket. */
function opensSentence(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	if (code < 0x80) return (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 34 || code === 40;
	return STARTS_SENTENCE.test(text.slice(at, at + 2));
}

/** Whether `sentences` ends a sentence at the mark at `at` (., ! or ?, then a space, then what opens one, and no abbreviation's dot). */
function endsSentenceAt(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	if ((code !== 46 && code !== 33 && code !== 63) || !isSpace(text.charCodeAt(at + 1))) return false;
	let next = at + 1;
	while (next < text.length && isSpace(text.charCodeAt(next))) next++;
	return opensSentence(text, next) && !(code === 46 && ABBREVIATION.test(text.slice(Math.max(0, at - 6), at)));
}

/** Whether a sentence ends (as `sentences` splits them) between `from` and `to`, where no letter or digit is. */
export function breaksSentence(text: string, from: number, to: number): boolean {
	for (let at = from; at < to; at++) if (text.charCodeAt(at) === 10 || endsSentenceAt(text, at)) return true;
	return false;
}

/** Whether the word whose first letter or digit is at `at` is the first word of its sentence, as `sentences` reads it (a list's marker left out). */
export function startsSentence(text: string, at: number): boolean {
	let before = at - 1;
	while (before >= 0 && text.charCodeAt(before) !== 10 && !beginsWord(text, before)) before--;
	if (before < 0 || text.charCodeAt(before) === 10) return true;
	if (breaksSentence(text, before + 1, at)) return true;
	return followsListNumber(text, before, at);
}

/** Whether the letter or digit at `last` ends a list's number ("2)" of "2) Porto") that opens the sentence of the word at `at`. */
function followsListNumber(text: string, last: number, at: number): boolean {
	const mark = text.charCodeAt(last + 1);
	if ((mark !== 41 && mark !== 46) || !isSpace(text.charCodeAt(last + 2)) || last + 2 >= at) return false;
	let first = last;
	while (first > 0 && text.charCodeAt(first - 1) >= 48 && text.charCodeAt(first - 1) <= 57) first--;
	if (!(text.charCodeAt(first) >= 48 && text.charCodeAt(first) <= 57 && text.charCodeAt(last) >= 48 && text.charCodeAt(last) <= 57)) return false;
	let start = first;
	while (start > 0 && text.charCodeAt(start - 1) !== 10 && isSpace(text.charCodeAt(start - 1))) start--;
	return start === 0 || text.charCodeAt(start - 1) === 10 || (start < first && endsSentenceAt(text, start - 1));
}
