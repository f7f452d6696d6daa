import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { prefixTerms, prefixWeight } from './prefix-terms';

function indexOf(texts: string[]) {
	const search = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
	search.addAll(texts.map((text, i) => ({ id: String(i), text })));
	return search;
}

describe('the words a prefix stands for', () => {
	it('takes the typed word and the closest words first, within the postings budget', () => {
		// "ter" (3 messages), "term" (3), "terms" (2), "terminal" (1), "terminology" (4).
		const search = indexOf(['ter term terms', 'ter term terminology', 'ter term terms terminology', 'terminal terminology', 'terminology', 'other']);
		expect(prefixTerms(search, 'ter', 1000)).toEqual(['ter', 'term', 'terms', 'terminal', 'terminology']);
		// 3 + 3 + 2 fit in 9; terminal (1) still fits; terminology (4) does not.
		expect(prefixTerms(search, 'ter', 9)).toEqual(['ter', 'term', 'terms', 'terminal']);
		// The typed word always counts, even over the budget.
		expect(prefixTerms(search, 'ter', 1)).toEqual(['ter']);
		expect(prefixTerms(search, 'zz', 1000)).toEqual([]);
		// And at most so many words, the closest.
		expect(prefixTerms(search, 'ter', 1000, 3)).toEqual(['ter', 'term', 'terms']);
	});

	it('weighs a longer word less, as MiniSearch weighs its prefix matches', () => {
		expect(prefixWeight('ter', 'ter')).toBe(1);
		expect(prefixWeight('ter', 'term')).toBeLessThan(0.375);
		expect(prefixWeight('ter', 'terminology')).toBeLessThan(prefixWeight('ter', 'term'));
	});
});
