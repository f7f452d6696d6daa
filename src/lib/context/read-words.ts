// How the name finder reads words: a word is a letter or digit and what continues it (letters,
// digits, ' ’ . & -), found from capital to capital. Character codes are read directly, and a
// Unicode pattern is asked only about a character past ASCII: it reads text several times
// slower, and most text is ASCII. Pure.
import { startsSentence } from './split-sentences';

/** A word of a sentence: where it starts, and its text. */
export interface Word {
	index: number;
	text: string;
}

const IS_LETTER_OR_DIGIT = /^[\p{L}\p{N}]/u;
const IS_UPPER = /^\p{Lu}/u;
const IS_LOWER = /^\p{Ll}/u;

const isAsciiAlnum = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** The length of the character (one or two code units) that starts at `at`. */
function charLength(text: string, at: number): number {
	const code = text.charCodeAt(at);
	return code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1;
}

/** Whether the character at `at` begins a word: a letter or digit. */
function beginsWord(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	if (code < 0x80) return isAsciiAlnum(code);
	return IS_LETTER_OR_DIGIT.test(text.slice(at, at + charLength(text, at)));
}

/** Whether the character at `at` continues a word: a letter, digit, ' ’ . & or -. */
function continuesWord(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	if (code === 39 || code === 46 || code === 38 || code === 45 || code === 0x2019) return true;
	return beginsWord(text, at);
}

/** Where the word that starts at `start` ends. */
function wordEnd(text: string, start: number): number {
	let end = start + charLength(text, start);
	while (end < text.length && continuesWord(text, end)) end += charLength(text, end);
	return end;
}

/** The first word that starts at or after `from`, or null. */
export function wordFrom(text: string, from: number): Word | null {
	for (let at = from; at < text.length; at += charLength(text, at)) {
		if (beginsWord(text, at)) return { index: at, text: text.slice(at, wordEnd(text, at)) };
	}
	return null;
}

/** The start of the character that ends before `at`. */
const charStartBefore = (text: string, at: number) => {
	const code = text.charCodeAt(at - 1);
	return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? at - 2 : at - 1;
};

/** The word that holds the letter at `at`. */
function wordAt(text: string, at: number): Word {
	let start = at;
	while (start > 0 && continuesWord(text, charStartBefore(text, start))) start = charStartBefore(text, start);
	return wordFrom(text, start)!;
}

/** Whether the character at `at` is a capital letter. */
function isCapitalAt(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	if (code < 0x80) return code >= 65 && code <= 90;
	return IS_UPPER.test(text.slice(at, at + charLength(text, at)));
}

/** Where a capital may be: an ASCII one, or any character past ASCII. */
const MAYBE_CAPITAL = /[A-Z\u0080-\uffff]/g;

/** The next capital letter in `text` from `from`, or -1. */
function nextCapital(text: string, from: number): number {
	MAYBE_CAPITAL.lastIndex = from;
	for (let found = MAYBE_CAPITAL.exec(text); found; found = MAYBE_CAPITAL.exec(text)) {
		if (text.charCodeAt(found.index) < 0x80 || isCapitalAt(text, found.index)) return found.index;
	}
	return -1;
}

/** Whether a word is written capitalised: its first letter a capital, or capitals after its first small letters ("eGFR", "iPhone"). */
export function isCapitalised(word: string): boolean {
	if (!word) return false;
	if (isCapitalAt(word, 0)) return true;
	let at = 0;
	while (at < word.length) {
		const code = word.charCodeAt(at);
		const lower = code < 0x80 ? code >= 97 && code <= 122 : IS_LOWER.test(word.slice(at, at + charLength(word, at)));
		if (!lower) break;
		at += charLength(word, at);
	}
	return at > 0 && at < word.length && isCapitalAt(word, at);
}

/** A word without its possessive ’s and the dots, apostrophes and hyphens that end it. */
export function bareWord(word: string): string {
	let end = word.length;
	const last = word.charCodeAt(end - 1);
	if (isAsciiAlnum(last) && last !== 115) return word;
	if (last === 115 && end >= 2 && (word.charCodeAt(end - 2) === 39 || word.charCodeAt(end - 2) === 0x2019)) end -= 2;
	while (end > 0) {
		const code = word.charCodeAt(end - 1);
		if (code !== 46 && code !== 39 && code !== 0x2019 && code !== 45) break;
		end--;
	}
	return end === word.length ? word : word.slice(0, end);
}

/**
 * Calls `visit` with each word of `text` that holds a capital, in order, and whether it is its
 * sentence's first word. Names are made of such words (and the connectors between them): the
 * search goes from capital to capital instead of reading every word, as most words of a
 * conversation have none.
 */
export function eachCapitalWord(text: string, visit: (word: Word, atStart: boolean) => number | void): void {
	let at = nextCapital(text, 0);
	while (at >= 0) {
		const word = wordAt(text, at);
		// `visit` may read on past the word, and says where to look for the next capital.
		const next = visit(word, startsSentence(text, word.index));
		at = nextCapital(text, Math.max(word.index + word.text.length, next ?? 0));
	}
}
