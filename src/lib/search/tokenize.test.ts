import { describe, expect, it } from 'vitest';
import { MAX_TERM, tokenize } from './tokenize';

describe('tokenize', () => {
	it('splits words, lowers case and keeps code identifiers whole', () => {
		expect(tokenize('Call parse_JSON(x) -- then 42 times!')).toEqual(['call', 'parse_json', 'x', 'then', '42', 'times']);
	});

	it('folds accents, so café and cafe are the same term', () => {
		expect(tokenize('Café Ångström naïve')).toEqual(['cafe', 'angstrom', 'naive']);
		expect(tokenize('CAFE\u0301')).toEqual(['cafe']);
	});

	it('turns Chinese, Japanese and Korean runs into character pairs', () => {
		expect(tokenize('搜索引擎')).toEqual(['搜索', '索引', '引擎']);
		expect(tokenize('検索する')).toEqual(['検索', '索す', 'する']);
		expect(tokenize('한국어 검색')).toEqual(['한국', '국어', '검색']);
		expect(tokenize('字')).toEqual(['字']);
	});

	it('separates CJK from Latin letters in one word', () => {
		expect(tokenize('用Svelte写')).toEqual(['用', 'svelte', '写']);
	});

	it('cuts very long terms', () => {
		expect(tokenize('a'.repeat(500))).toEqual(['a'.repeat(MAX_TERM)]);
	});
});
