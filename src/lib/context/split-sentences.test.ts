import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bareWord } from './read-words';
import { breaksSentence, sentences, startsSentence } from './split-sentences';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.&-]*/u;

/** Texts made of the pieces sentence splitting turns on: abbreviations, list markers, quotes, marks, line breaks and letters past ASCII. */
const PIECES = ['Porto', 'Dr. Mehta', 'e.g. Paris', '1) Casa', '2. Lisbon', '- Anna', '> Quote', '"Émile"', '“Łódź”', '(Bank of England)', "St. Olav's", 'U.S. Army', 'iPhone 15', 'x-Men', 'approx. Ten', 'no. 5', '東京 Tower', 'Ünal', 'said', 'then', '3', 'ok'];
const SEPARATORS = [' ', '. ', '.\n', '\n', ', ', '! ', '? ', '.  ', '\n- ', '\n1. ', '\n  2) ', ' (', ') ', ': ', '.\n\n'];
const text = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 12 }).map((parts) => parts.map(([piece, separator]) => piece + separator).join(''));

/** Where each sentence's first word starts, as `sentences` splits the text. */
function firstWords(said: string): number[] {
	const starts: number[] = [];
	let from = 0;
	for (const sentence of sentences(said)) {
		const at = said.indexOf(sentence, from);
		const first = WORD.exec(sentence);
		if (first) starts.push(at + first.index);
		from = at + sentence.length;
	}
	return starts;
}

describe('startsSentence and breaksSentence', () => {
	it('find sentences where sentences() splits them, without splitting the text', () => {
		fc.assert(
			fc.property(text, (said) => {
				const words = [...said.matchAll(new RegExp(WORD, 'gu'))];
				// Names begin with a letter: a list's number is no word to ask about.
				const lettered = (at: number) => /^\p{L}/u.test(said.slice(at, at + 2));
				const firsts = new Set(firstWords(said).filter(lettered));
				expect(words.filter((word) => lettered(word.index) && startsSentence(said, word.index)).map((word) => word.index)).toEqual([...firsts]);
				for (let i = 1; i < words.length; i++) {
					const previous = words[i - 1];
					const end = previous.index + bareWord(previous[0]).length;
					if (lettered(previous.index) && lettered(words[i].index)) expect(breaksSentence(said, end, words[i].index), JSON.stringify(said.slice(previous.index, words[i].index + 3))).toBe(firsts.has(words[i].index));
				}
			}),
			{ numRuns: 500 }
		);
	});
});
