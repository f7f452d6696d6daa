import { describe, expect, it } from 'vitest';
import { byteStream, collect, readFixture } from './fixtures/read-fixture';
import { decodeOpenAIStream } from './openai-stream';
import { readSSE } from './sse';
import type { StreamEvent } from './types';

const decode = (text: string, chunkSize = 13): Promise<StreamEvent[]> =>
	collect(decodeOpenAIStream(readSSE(byteStream(text, chunkSize))));

const textOf = (events: StreamEvent[]) =>
	events.map((event) => (event.type === 'text' ? event.text : '')).join('');

describe('decodeOpenAIStream on recorded streams', () => {
	it('streams text, then usage from the final chunk, then done', async () => {
		const events = await decode(readFixture('openai-text.sse'));
		expect(textOf(events)).toBe('Hello! How can I help you today? Ça va ? 👋');
		expect(events.slice(-2)).toEqual([
			{ type: 'usage', usage: { input_tokens: 19, output_tokens: 10 } },
			{ type: 'done', finish_reason: 'stop' }
		]);
	});

	it('gives the same events for every chunk size', async () => {
		const fixture = readFixture('openai-text.sse');
		const reference = await decode(fixture, 4096);
		for (const size of [1, 2, 3, 5, 64]) expect(await decode(fixture, size)).toEqual(reference);
	});

	it('assembles parallel tool calls from index-keyed fragments', async () => {
		const events = await decode(readFixture('openai-tool-calls.sse'));
		expect(events).toEqual([
			{
				type: 'tool_call',
				call: { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', arguments: '{"location": "Paris"}' }
			},
			{
				type: 'tool_call',
				call: { id: 'call_ABSg2Vb6hVYx0s6Fr1pt0RbM', name: 'get_time', arguments: '{"tz":"Europe/Paris"}' }
			},
			{ type: 'usage', usage: { input_tokens: 82, output_tokens: 46 } },
			{ type: 'done', finish_reason: 'tool_calls' }
		]);
	});

	it('throws incomplete when the stream ends with neither finish_reason nor [DONE]', async () => {
		const seen: StreamEvent[] = [];
		const run = async () => {
			for await (const event of decodeOpenAIStream(readSSE(byteStream(readFixture('openai-truncated.sse'))))) {
				seen.push(event);
			}
		};
		await expect(run()).rejects.toMatchObject({ name: 'ProviderError', kind: 'incomplete' });
		expect(textOf(seen)).toBe('The answer is forty');
	});

	it('throws the classified error when an error object arrives after 200 OK', async () => {
		await expect(decode(readFixture('openai-error-mid-stream.sse'))).rejects.toMatchObject({
			kind: 'server',
			status: 502,
			message: expect.stringContaining('Provider disconnected unexpectedly')
		});
	});

	it('throws malformed, quoting the line, when a data line is not JSON', async () => {
		const text = 'data: {"choices":[{"delta":{"content":"ok"}}]}\n\ndata: {"choices":[{"delta":\n\n';
		await expect(decode(text)).rejects.toMatchObject({
			kind: 'malformed',
			message: expect.stringContaining('{"choices":[{"delta":')
		});
	});

	it('accepts a finish_reason without [DONE] (servers that just close)', async () => {
		const text = 'data: {"choices":[{"delta":{"content":"Hi"},"finish_reason":null}]}\n\n' +
			'data: {"choices":[{"delta":{},"finish_reason":"length"}]}\n\n';
		expect(await decode(text)).toEqual([
			{ type: 'text', text: 'Hi' },
			{ type: 'done', finish_reason: 'length' }
		]);
	});

	it('assembles tool calls from servers that omit the index', async () => {
		const chunk = (calls: unknown, finish: string | null = null) =>
			`data: ${JSON.stringify({ choices: [{ delta: { tool_calls: calls }, finish_reason: finish }] })}\n\n`;
		const text =
			chunk([{ id: 'a', function: { name: 'one', arguments: '{}' } }]) +
			chunk([{ id: 'b', function: { name: 'two', arguments: '{"x":1}' } }], 'tool_calls') +
			'data: [DONE]\n\n';
		const calls = (await decode(text)).filter((event) => event.type === 'tool_call');
		expect(calls.map((event) => event.call)).toEqual([
			{ id: 'a', name: 'one', arguments: '{}' },
			{ id: 'b', name: 'two', arguments: '{"x":1}' }
		]);
	});
});

describe('decodeOpenAIStream on well-formed but unexpected frames', () => {
	const frames = (data: string) => `data: ${data}\n\ndata: [DONE]\n\n`;
	it.each([
		'null',
		'42',
		'"text"',
		'[1,2]',
		'{"choices":"none"}',
		'{"choices":[null]}',
		'{"choices":[{"delta":{"content":{"text":"x"}}}]}',
		'{"choices":[{"delta":{"tool_calls":{"index":0}}}]}',
		'{"choices":[{"delta":{"tool_calls":[{"index":-1}]}}]}',
		'{"choices":[],"usage":"many"}'
	])('reports data: %s as an unexpected event, not a TypeError', async (data) => {
		await expect(decode(frames(data))).rejects.toMatchObject({
			name: 'ProviderError',
			kind: 'malformed',
			message: `The provider sent an unexpected event: ${data}`
		});
	});
});

describe('decodeOpenAIStream finish reasons', () => {
	const ending = (reason: string) =>
		`data: {"choices":[{"delta":{"content":"Partial"},"finish_reason":null}]}\n\n` +
		`data: {"choices":[{"delta":{},"finish_reason":"${reason}"}]}\n\ndata: [DONE]\n\n`;
	it.each([
		['content_filter', 'content_filter'],
		['length', 'length'],
		['model_length', 'context_window_exceeded'],
		['SAFETY', 'content_filter'],
		['eos_token', 'stop']
	])('maps %s to the neutral %s', async (wire, neutral) => {
		expect((await decode(ending(wire))).at(-1)).toEqual({ type: 'done', finish_reason: neutral });
	});

	it('shows a refusal and ends it as refusal, not stop', async () => {
		const events = await decode(
			`data: {"choices":[{"delta":{"refusal":"I can't help with that."},"finish_reason":null}]}\n\n` +
				`data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`
		);
		expect(events).toEqual([
			{ type: 'text', text: "I can't help with that." },
			{ type: 'done', finish_reason: 'refusal' }
		]);
	});
});
