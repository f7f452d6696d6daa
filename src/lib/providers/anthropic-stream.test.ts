import { describe, expect, it } from 'vitest';
import { decodeAnthropicStream } from './anthropic-stream';
import { byteStream, collect, readFixture } from './fixtures/read-fixture';
import { readSSE } from './sse';
import type { StreamEvent } from './types';

const decode = (text: string, chunkSize = 11): Promise<StreamEvent[]> =>
	collect(decodeAnthropicStream(readSSE(byteStream(text, chunkSize))));

describe('decodeAnthropicStream on recorded streams', () => {
	it('streams text deltas, usage and done (end_turn → stop)', async () => {
		expect(await decode(readFixture('anthropic-text.sse'))).toEqual([
			{ type: 'text', text: 'Hello' },
			{ type: 'text', text: '! Ça va ?' },
			{ type: 'text', text: ' 👋' },
			{ type: 'usage', usage: { input_tokens: 25, output_tokens: 15 } },
			{ type: 'done', finish_reason: 'stop' }
		]);
	});

	it('assembles tool_use input from input_json_delta, counting cached input tokens', async () => {
		expect(await decode(readFixture('anthropic-tool-use.sse'), 1)).toEqual([
			{ type: 'text', text: 'Let me check the weather.' },
			{
				type: 'tool_call',
				call: {
					id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
					name: 'get_weather',
					arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}'
				}
			},
			{ type: 'tool_call', call: { id: 'toolu_02', name: 'get_time', arguments: '{}' } },
			{ type: 'usage', usage: { input_tokens: 1472, output_tokens: 89 } },
			{ type: 'done', finish_reason: 'tool_calls' }
		]);
	});

	it('reports an answer cut off by max_tokens as finish_reason length', async () => {
		const text =
			'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Half"}}\n\n' +
			'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":8}}\n\n' +
			'event: message_stop\ndata: {"type":"message_stop"}\n\n';
		expect((await decode(text)).at(-1)).toEqual({ type: 'done', finish_reason: 'length' });
	});

	it('throws the classified error for an error event after 200 OK', async () => {
		await expect(decode(readFixture('anthropic-error-mid-stream.sse'))).rejects.toMatchObject({
			name: 'ProviderError',
			kind: 'server',
			message: expect.stringContaining('Overloaded')
		});
	});

	it('throws incomplete when message_stop never comes', async () => {
		await expect(decode(readFixture('anthropic-truncated.sse'))).rejects.toMatchObject({
			kind: 'incomplete'
		});
	});

	it('throws malformed for an event whose data is not JSON', async () => {
		await expect(decode('event: message_start\ndata: {"type":\n\n')).rejects.toMatchObject({
			kind: 'malformed'
		});
	});
});

describe('decodeAnthropicStream on well-formed but unexpected frames', () => {
	const start = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n';
	it.each([
		'null',
		'7',
		'["message_stop"]',
		'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}',
		'{"type":"content_block_start","index":0,"content_block":"tool_use"}',
		'{"type":"message_delta","delta":{"stop_reason":1}}',
		'{"type":"message_start","message":{"usage":{"input_tokens":"many"}}}'
	])('reports data: %s as an unexpected event, not a TypeError', async (data) => {
		await expect(decode(`${start}event: content_block_delta\ndata: ${data}\n\n`)).rejects.toMatchObject({
			name: 'ProviderError',
			kind: 'malformed',
			message: `The provider sent an unexpected event: ${data}`
		});
	});
});

describe('decodeAnthropicStream stop reasons', () => {
	const ending = (stop: string) =>
		'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n' +
		'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Part"}}\n\n' +
		`event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"${stop}"},"usage":{"output_tokens":2}}\n\n` +
		'event: message_stop\ndata: {"type":"message_stop"}\n\n';
	it.each([
		['refusal', 'refusal'],
		['model_context_window_exceeded', 'context_window_exceeded'],
		['pause_turn', 'paused'],
		['max_tokens', 'length'],
		['stop_sequence', 'stop']
	])('maps %s to the neutral %s', async (wire, neutral) => {
		expect((await decode(ending(wire))).at(-1)).toEqual({ type: 'done', finish_reason: neutral });
	});
});

describe('decodeAnthropicStream and context editing', () => {
	it('reports tool results the server cleared from its context, so the app can do the same', async () => {
		const frames = [
			'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":900}}}',
			'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
			'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}',
			'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3},"context_management":{"applied_edits":[{"type":"clear_tool_uses_20250919","cleared_tool_uses":4,"cleared_input_tokens":51000}]}}',
			'event: message_stop\ndata: {"type":"message_stop"}'
		].join('\n\n') + '\n\n';
		const events = await decode(frames);
		expect(events).toContainEqual({ type: 'context_compacted', cleared_tool_results: 4 });
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
	});

	it('reports nothing when no edit was applied', async () => {
		const frames = [
			'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":9}}}',
			'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"context_management":{"applied_edits":[]}}',
			'event: message_stop\ndata: {"type":"message_stop"}'
		].join('\n\n') + '\n\n';
		expect((await decode(frames)).some((event) => event.type === 'context_compacted')).toBe(false);
	});
});
