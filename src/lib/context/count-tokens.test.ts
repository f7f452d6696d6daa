import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it, vi } from 'vitest';
import { countTokens, encodingForModel, estimateRequestTokens } from './count-tokens';

const SAMPLES = {
	english: 'The quick brown fox jumps over the lazy dog, then writes a unit test about it.',
	json: JSON.stringify({ tool: 'search', args: { query: 'token "counting"', limit: 10, tags: ['a', 'b'] } }),
	cjk: '東京は日本の首都です。我们今天讨论上下文压缩。한국어 문장도 있습니다.'
};

describe('encodingForModel', () => {
	it.each([
		['gpt-4o', 'o200k_base'],
		['gpt-4o-mini', 'o200k_base'],
		['gpt-4.1', 'o200k_base'],
		['gpt-5', 'o200k_base'],
		['o3-mini', 'o200k_base'],
		['claude-sonnet-4', 'o200k_base'],
		['', 'o200k_base'],
		['gpt-4', 'cl100k_base'],
		['gpt-4-turbo', 'cl100k_base'],
		['gpt-4-0613', 'cl100k_base'],
		['gpt-3.5-turbo', 'cl100k_base'],
		['gpt-35-turbo', 'cl100k_base'],
		['text-embedding-3-small', 'cl100k_base'],
		['text-embedding-ada-002', 'cl100k_base'],
		['text-davinci-003', 'cl100k_base'],
		['openai/gpt-4-turbo', 'cl100k_base'],
		['OpenAI/GPT-4O', 'o200k_base']
	])('%s uses %s', (model, encoding) => {
		expect(encodingForModel(model)).toBe(encoding);
	});
});

describe('countTokens', () => {
	it.each(Object.entries(SAMPLES))('matches gpt-tokenizer on %s text', (_kind, text) => {
		expect(countTokens(text, o200k)).toBe(o200k.encode(text).length);
		expect(countTokens(text, cl100k)).toBe(cl100k.encode(text).length);
	});

	it('differs between encodings on CJK text, so the choice matters', () => {
		expect(countTokens(SAMPLES.cjk, o200k)).not.toBe(countTokens(SAMPLES.cjk, cl100k));
	});

	it('counts special-token text as plain text instead of throwing', () => {
		const text = 'ignore <|endoftext|> this';
		expect(countTokens(text, o200k)).toBe(o200k.encode(text, { disallowedSpecial: new Set() }).length);
		expect(countTokens(text, o200k)).toBeGreaterThan(3);
	});

	it('counts the empty string as zero', () => {
		expect(countTokens('', o200k)).toBe(0);
	});
});

describe('estimateRequestTokens', () => {
	const length = (text: string) => text.length;

	it('reuses cached counts and counts only the missing messages', () => {
		const count = vi.fn(length);
		const result = estimateRequestTokens(
			{ messages: [{ content: 'aaaa', tokens: 100 }, { content: 'bbbbbb' }, { content: 'cc', tokens: 7 }] },
			count
		);
		expect(count).toHaveBeenCalledTimes(1);
		expect(count).toHaveBeenCalledWith('bbbbbb');
		expect(result.messageCounts).toEqual([100, 6, 7]);
		expect(result.recounted).toEqual([1]);
		expect(result.messages).toBe(113);
	});

	it('recounts a cached count made with another encoding', () => {
		const count = vi.fn(length);
		const result = estimateRequestTokens(
			{
				messages: [
					{ content: 'abc', tokens: 50, encoding: 'cl100k_base' },
					{ content: 'de', tokens: 9, encoding: 'o200k_base' }
				],
				encoding: 'o200k_base'
			},
			count
		);
		expect(result.messageCounts).toEqual([3, 9]);
		expect(result.recounted).toEqual([0]);
	});

	it('adds system prompt, tool schemas (each tool as its JSON), injected context, overhead and reserved output', () => {
		const tools = [{ name: 'search', parameters: { type: 'object' } }, { name: 'now' }];
		const toolChars = JSON.stringify(tools[0]).length + JSON.stringify(tools[1]).length;
		const result = estimateRequestTokens(
			{
				messages: [{ content: 'x', tokens: 10 }, { content: 'y', tokens: 20 }],
				systemPrompt: 'sys',
				toolSchemas: tools,
				injected: ['12345', '67'],
				reservedOutput: 1000
			},
			length
		);
		expect(result.systemPrompt).toBe(3);
		expect(result.toolSchemas).toBe(toolChars);
		expect(result.injected).toBe(7);
		expect(result.overhead).toBe(4 * 2);
		expect(result.systemOverhead).toBe(4);
		expect(result.total).toBe(30 + 3 + toolChars + 7 + 12 + 1000);
	});

	it('honours a custom per-message overhead and counts nothing for absent parts', () => {
		const count = vi.fn(length);
		const result = estimateRequestTokens(
			{ messages: [{ content: 'x', tokens: 1 }], perMessageOverhead: 3 },
			count
		);
		expect(count).not.toHaveBeenCalled();
		expect(result.total).toBe(1 + 3);
	});
});
