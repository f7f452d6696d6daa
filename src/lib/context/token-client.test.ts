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

	it.each([
		['gpt-4o', 'o200k_base', o200k],
		['gpt-4', 'cl100k_base', cl100k]
	] as const)('counts for %s with %s', async (model, encoding, table) => {
		const result = await client.estimate({ messages: texts.map((content) => ({ content })) }, model);
		expect(result.encoding).toBe(encoding);
		expect(result.messageCounts).toEqual(texts.map((t) => table.encode(t).length));
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
		await expect(client.estimate({ messages: [{ content: null as unknown as string }] }, 'gpt-4o')).rejects.toThrow();
	});
});
