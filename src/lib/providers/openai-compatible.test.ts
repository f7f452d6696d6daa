import { describe, expect, it, vi } from 'vitest';
import { startMockProvider } from '../../../tests/support/mock-provider.mjs';
import { useMockProvider } from '../../../tests/support/use-mock-provider';
import { collect } from './fixtures/read-fixture';
import { createOpenAICompatibleProvider } from './openai-compatible';
import type { ProviderConfig, StreamEvent } from './types';

const mock = useMockProvider();

const config = (overrides: Partial<ProviderConfig> = {}): ProviderConfig => ({
	id: 'local',
	preset: 'custom',
	label: 'Local',
	base_url: `${mock.url}/v1/`,
	api_key: 'sk-test',
	model: 'mock-model',
	...overrides
});
const noWait = { retry: { sleep: async () => {} } };
const provider = (overrides: Partial<ProviderConfig> = {}) =>
	createOpenAICompatibleProvider(config(overrides), undefined, noWait);
const user = (content: string) => ({ model: 'mock-model', messages: [{ role: 'user' as const, content }] });
const textOf = (events: StreamEvent[]) =>
	events.map((event) => (event.type === 'text' ? event.text : '')).join('');

describe('OpenAI-compatible provider against the mock server', () => {
	it('streams an answer and sends a Chat Completions request with the key', async () => {
		const events = await collect(provider().stream(user('Hi there')));
		expect(textOf(events)).toBe('Mock answer to: Hi there');
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
		expect(events.find((event) => event.type === 'usage')).toBeTruthy();
		const [request] = mock.requests;
		expect(request.path).toBe('/v1/chat/completions');
		expect(request.headers.authorization).toBe('Bearer sk-test');
		expect(request.body).toMatchObject({
			model: 'mock-model',
			stream: true,
			stream_options: { include_usage: true },
			messages: [{ role: 'user', content: 'Hi there' }]
		});
	});

	it('sends no Authorization header when no key is set', async () => {
		await collect(provider({ api_key: '' }).stream(user('x')));
		expect(mock.requests[0].headers.authorization).toBeUndefined();
	});

	it('sends tools and tool history in OpenAI format and returns the streamed tool call', async () => {
		mock.script([{ type: 'tool_call', name: 'get_weather', arguments: { city: 'Oslo' } }]);
		const events = await collect(
			provider().stream({
				model: 'mock-model',
				tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }],
				messages: [
					{ role: 'user', content: 'Weather?' },
					{ role: 'assistant', content: '', tool_calls: [{ id: 'c0', name: 'get_weather', arguments: '{"city":"Rome"}' }] },
					{ role: 'tool', content: 'sunny', tool_call_id: 'c0' }
				]
			})
		);
		expect(events.filter((event) => event.type === 'tool_call')).toEqual([
			{ type: 'tool_call', call: { id: 'call_mock_1', name: 'get_weather', arguments: '{"city":"Oslo"}' } }
		]);
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'tool_calls' });
		const body = mock.requests[0].body;
		expect(body.tools).toEqual([
			{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } }
		]);
		expect(body.messages.slice(1)).toEqual([
			{
				role: 'assistant',
				content: null,
				tool_calls: [{ id: 'c0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }]
			},
			{ role: 'tool', tool_call_id: 'c0', content: 'sunny' }
		]);
	});

	it('uses max_completion_tokens for OpenAI itself and max_tokens elsewhere', async () => {
		await collect(provider({ preset: 'openai_chat' }).stream({ ...user('a'), max_tokens: 50 }));
		await collect(provider({ preset: 'llamacpp' }).stream({ ...user('a'), max_tokens: 50 }));
		expect(mock.requests[0].body.max_completion_tokens).toBe(50);
		expect(mock.requests[1].body.max_tokens).toBe(50);
	});

	it('classifies an HTTP overflow error and does not retry it', async () => {
		mock.script([
			{ type: 'http_error', status: 400, body: { error: { message: 'maximum context length is 10 tokens', code: 'context_length_exceeded' } } }
		]);
		await expect(collect(provider().stream(user('long')))).rejects.toMatchObject({ kind: 'overflow', status: 400 });
		expect(mock.requests).toHaveLength(1);
	});

	it('retries a 429 before streaming and then streams the answer', async () => {
		mock.script([
			{ type: 'http_error', status: 429, body: { error: { message: 'Slow down' } }, headers: { 'retry-after': '1' } },
			{ type: 'text', text: 'second time lucky' }
		]);
		const events = await collect(provider().stream(user('x')));
		expect(textOf(events)).toBe('second time lucky');
		expect(mock.requests).toHaveLength(2);
	});

	it('does not retry once streaming has started: a mid-stream error is thrown as is', async () => {
		mock.script([{ type: 'stream_error', text: 'partial answer', message: 'boom' }]);
		const seen: StreamEvent[] = [];
		const run = async () => {
			for await (const event of provider().stream(user('x'))) seen.push(event);
		};
		await expect(run()).rejects.toMatchObject({ kind: 'server', message: expect.stringContaining('boom') });
		expect(textOf(seen)).toBe('partial answer');
		expect(mock.requests).toHaveLength(1);
	});

	it('reports a stream cut without a terminator as incomplete, without retrying', async () => {
		mock.script([{ type: 'cut', text: 'half of it' }]);
		await expect(collect(provider().stream(user('x')))).rejects.toMatchObject({ kind: 'incomplete' });
		expect(mock.requests).toHaveLength(1);
	});

	it('ends with an AbortError when aborted mid-stream, keeping what arrived', async () => {
		mock.script([{ type: 'hang', text: 'thinking out loud' }]);
		const controller = new AbortController();
		const seen: string[] = [];
		const run = async () => {
			for await (const event of provider().stream({ ...user('x'), signal: controller.signal })) {
				if (event.type === 'text') seen.push(event.text);
				if (seen.join('') === 'thinking out loud') controller.abort();
			}
		};
		await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
		expect(seen.join('')).toBe('thinking out loud');
		await vi.waitFor(() => expect(mock.requests[0].abortedByClient).toBe(true));
	});

	it('does not send a request when the signal is already aborted', async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(collect(provider().stream({ ...user('x'), signal: controller.signal }))).rejects.toMatchObject({
			name: 'AbortError'
		});
		expect(mock.requests).toHaveLength(0);
	});

	it('lists models from GET /models', async () => {
		expect(await provider().listModels?.()).toEqual(['mock-model', 'mock-large']);
		expect(mock.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
	});

	it('says a model list it cannot read is unexpected, instead of failing with a TypeError', async () => {
		for (const body of ['null', '{"data":"all"}', '[1]']) {
			const fetchImpl = async () => new Response(body, { headers: { 'content-type': 'application/json' } });
			const odd = createOpenAICompatibleProvider(config(), fetchImpl, noWait);
			await expect(odd.listModels?.(), body).rejects.toMatchObject({
				kind: 'malformed',
				message: expect.stringContaining('The provider sent an unexpected response')
			});
		}
	});

	it('reports an unreachable server as a network error after its retries', async () => {
		const closed = await startMockProvider();
		await closed.close();
		const unreachable = createOpenAICompatibleProvider(config({ base_url: `${closed.url}/v1` }), undefined, noWait);
		await expect(collect(unreachable.stream(user('x')))).rejects.toMatchObject({ kind: 'network' });
	});
});
