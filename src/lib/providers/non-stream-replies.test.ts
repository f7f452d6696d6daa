// A 200 answer that is not an event stream, from the mock server in both wire formats: it is
// read by what it is, so an error keeps the provider's words and kind, and a whole
// completion keeps its text.
import { describe, expect, it } from 'vitest';
import { providerOnMock, useMockProvider } from '../../../tests/support/use-mock-provider';
import { collect } from './fixtures/read-fixture';
import type { ProviderPreset, StreamEvent } from './types';

const mock = useMockProvider();
const providerFor = (preset: ProviderPreset) => providerOnMock(mock, preset, 'm');
const ask = (preset: ProviderPreset) => collect(providerFor(preset).stream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }));
const textOf = (events: StreamEvent[]) => events.map((event) => (event.type === 'text' ? event.text : '')).join('');

// llama.cpp's server answers a prompt that does not fit with a JSON error, and some versions
// and proxies in front of it send that with status 200.
const LLAMA_OVERFLOW = {
	error: {
		code: 400,
		message: 'the request exceeds the available context size, try increasing it',
		type: 'exceed_context_size_error',
		n_prompt_tokens: 9000,
		n_ctx: 4096
	}
};

describe('a 200 answer with a JSON error body', () => {
	it('keeps llama.cpp\'s message and is classified as a context overflow', async () => {
		mock.script([{ type: 'reply', body: LLAMA_OVERFLOW }]);
		await expect(ask('llamacpp')).rejects.toMatchObject({
			name: 'ProviderError',
			kind: 'overflow',
			status: 400,
			message: expect.stringContaining('the request exceeds the available context size')
		});
	});

	it('classifies an OpenAI-style context_length_exceeded code the same way', async () => {
		mock.script([
			{ type: 'reply', body: { error: { message: 'Too long for this model.', type: 'invalid_request_error', code: 'context_length_exceeded' } } }
		]);
		await expect(ask('custom')).rejects.toMatchObject({ kind: 'overflow', message: expect.stringContaining('Too long for this model.') });
	});

	it('keeps an Anthropic error object and its kind', async () => {
		mock.script([{ type: 'reply', body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }]);
		await expect(ask('anthropic')).rejects.toMatchObject({ kind: 'server', message: expect.stringContaining('Overloaded') });
	});

	it('reads JSON by its first character when the server labels it as text', async () => {
		mock.script([{ type: 'reply', body: JSON.stringify(LLAMA_OVERFLOW), contentType: 'text/plain' }]);
		await expect(ask('llamacpp')).rejects.toMatchObject({ kind: 'overflow' });
	});
});

describe('a 200 answer that is a whole, non-streamed completion', () => {
	it('shows an OpenAI chat.completion\'s text, usage and finish reason', async () => {
		mock.script([
			{
				type: 'reply',
				body: {
					id: 'chatcmpl-1',
					object: 'chat.completion',
					choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer from a proxy.' }, finish_reason: 'stop' }],
					usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }
				}
			}
		]);
		const events = await ask('custom');
		expect(textOf(events)).toBe('Whole answer from a proxy.');
		expect(events.slice(-2)).toEqual([
			{ type: 'usage', usage: { input_tokens: 12, output_tokens: 5 } },
			{ type: 'done', finish_reason: 'stop' }
		]);
	});

	it('returns the tool calls of a whole OpenAI completion', async () => {
		const call = { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{"tz":"UTC"}' } };
		mock.script([
			{ type: 'reply', body: { choices: [{ message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }] } }
		]);
		expect(await ask('custom')).toEqual([
			{ type: 'tool_call', call: { id: 'call_1', name: 'get_time', arguments: '{"tz":"UTC"}' } },
			{ type: 'done', finish_reason: 'tool_calls' }
		]);
	});

	it('shows an Anthropic message\'s text and tool use', async () => {
		mock.script([
			{
				type: 'reply',
				body: {
					id: 'msg_1',
					type: 'message',
					role: 'assistant',
					content: [
						{ type: 'text', text: 'Checking.' },
						{ type: 'tool_use', id: 'toolu_1', name: 'get_time', input: { tz: 'UTC' } }
					],
					stop_reason: 'tool_use',
					usage: { input_tokens: 20, output_tokens: 9, server_tool_use: { web_search_requests: 0 } }
				}
			}
		]);
		expect(await ask('anthropic')).toEqual([
			{ type: 'text', text: 'Checking.' },
			{ type: 'tool_call', call: { id: 'toolu_1', name: 'get_time', arguments: '{"tz":"UTC"}' } },
			{ type: 'usage', usage: { input_tokens: 20, output_tokens: 9 } },
			{ type: 'done', finish_reason: 'tool_calls' }
		]);
	});
});

describe('other 200 answers that are not an event stream', () => {
	it('refuses a web page, quoting it, instead of waiting for events', async () => {
		mock.script([{ type: 'reply', body: '<!doctype html><title>Sign in</title><h1>Sign in to the proxy</h1>', contentType: 'text/html' }]);
		await expect(ask('custom')).rejects.toMatchObject({
			kind: 'malformed',
			message: expect.stringMatching(/web page \(text\/html\).*Sign in to the proxy/)
		});
	});

	it('says so when a JSON answer is neither a completion nor an error', async () => {
		mock.script([{ type: 'reply', body: { hello: 'world' } }]);
		await expect(ask('custom')).rejects.toMatchObject({
			kind: 'malformed',
			message: 'The provider sent an unexpected response: {"hello":"world"}'
		});
	});

	it('still streams an event stream sent under a loose content type', async () => {
		const frames = 'data: {"choices":[{"delta":{"content":"Loose"},"finish_reason":null}]}\n\ndata: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
		mock.script([{ type: 'reply', body: frames, contentType: 'text/plain' }]);
		const events = await ask('custom');
		expect(textOf(events)).toBe('Loose');
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
	});
});
