import { expose } from 'comlink';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenClientFromPort } from './token-client';
import { tokenizerApi } from './tokenizer-api';

// The worker file only calls expose(tokenizerApi); this runs the same API over a real
// MessageChannel, so arguments and results go through structured cloning as in the browser.
const { port1, port2 } = new MessageChannel();
expose(tokenizerApi, port1);
const client = createTokenClientFromPort(port2);

afterAll(() => {
	client.dispose();
	port1.close();
});

describe('token client over comlink', () => {
	const texts = ['Hello, world!', '{"a": [1, 2, 3]}', '日本語のテキスト'];

	it('counts with o200k_base for modern models', async () => {
		const result = await client.count(texts, 'gpt-4o');
		expect(result).toEqual({ encoding: 'o200k_base', counts: texts.map((t) => o200k.encode(t).length) });
	});

	it('counts with cl100k_base for gpt-4', async () => {
		const result = await client.count(texts, 'gpt-4');
		expect(result).toEqual({ encoding: 'cl100k_base', counts: texts.map((t) => cl100k.encode(t).length) });
	});

	it('estimates a request, returning fresh counts for the caller to cache', async () => {
		const result = await client.estimate(
			{ messages: [{ content: 'cached', tokens: 42 }, { content: texts[2] }], systemPrompt: texts[0] },
			'gpt-4o-mini'
		);
		expect(result.encoding).toBe('o200k_base');
		expect(result.recounted).toEqual([1]);
		expect(result.messageCounts).toEqual([42, o200k.encode(texts[2]).length]);
		expect(result.total).toBe(42 + o200k.encode(texts[2]).length + o200k.encode(texts[0]).length + 4 * 3);
	});

	it('rejects across the channel instead of hanging when input is invalid', async () => {
		await expect(client.count([null as unknown as string], 'gpt-4o')).rejects.toThrow();
	});
});
