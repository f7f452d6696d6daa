import { describe, expect, it, vi } from 'vitest';
import { useMockProvider } from '../../../tests/support/use-mock-provider';
import { createAnthropicProvider } from './anthropic';
import { buildAnthropicBody, DEFAULT_ANTHROPIC_MAX_TOKENS } from './anthropic-request';
import { collect } from './fixtures/read-fixture';
import type { ProviderConfig, StreamEvent } from './types';

const mock = useMockProvider();

const provider = (baseUrl = mock.url) => {
	const config: ProviderConfig = {
		id: 'claude',
		preset: 'anthropic',
		label: 'Claude',
		base_url: baseUrl,
		api_key: 'sk-ant-test',
		model: 'claude-test'
	};
	return createAnthropicProvider(config, undefined, { retry: { sleep: async () => {} } });
};
const user = (content: string) => ({ model: 'claude-test', messages: [{ role: 'user' as const, content }] });
const textOf = (events: StreamEvent[]) =>
	events.map((event) => (event.type === 'text' ? event.text : '')).join('');

describe('Anthropic provider against the mock server', () => {
	it('streams an answer, sending the browser-access headers', async () => {
		const events = await collect(provider().stream(user('Bonjour')));
		expect(textOf(events)).toBe('Mock answer to: Bonjour');
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
		const [request] = mock.requests;
		expect(request.path).toBe('/v1/messages');
		expect(request.headers).toMatchObject({
			'x-api-key': 'sk-ant-test',
			'anthropic-version': '2023-06-01',
			'anthropic-dangerous-direct-browser-access': 'true'
		});
		expect(request.body).toMatchObject({ model: 'claude-test', stream: true, max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS });
	});

	it('accepts a base URL that already ends in /v1', async () => {
		await collect(provider(`${mock.url}/v1/`).stream(user('x')));
		expect(mock.requests[0].path).toBe('/v1/messages');
	});

	it('returns a streamed tool_use as a tool call', async () => {
		mock.script([{ type: 'tool_call', name: 'search', arguments: '{"q":"tides"}', id: 'toolu_9', text: 'Looking.' }]);
		const events = await collect(provider().stream(user('x')));
		expect(textOf(events)).toBe('Looking.');
		expect(events.filter((event) => event.type !== 'text' && event.type !== 'usage')).toEqual([
			{ type: 'tool_call', call: { id: 'toolu_9', name: 'search', arguments: '{"q":"tides"}' } },
			{ type: 'done', finish_reason: 'tool_calls' }
		]);
	});

	it('classifies an overloaded 529 as a server error and retries it before streaming', async () => {
		const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
		mock.script([
			{ type: 'http_error', status: 529, body: overloaded },
			{ type: 'http_error', status: 529, body: overloaded },
			{ type: 'http_error', status: 529, body: overloaded }
		]);
		await expect(collect(provider().stream(user('x')))).rejects.toMatchObject({ kind: 'server', status: 529 });
		expect(mock.requests).toHaveLength(3);
	});

	it('classifies "prompt is too long" as overflow', async () => {
		mock.script([
			{
				type: 'http_error',
				status: 400,
				body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }
			}
		]);
		await expect(collect(provider().stream(user('x')))).rejects.toMatchObject({ kind: 'overflow' });
	});

	it('throws an error event sent mid-stream, and incomplete when message_stop is missing', async () => {
		mock.script([{ type: 'stream_error', text: 'abc' }, { type: 'cut', text: 'abc' }]);
		await expect(collect(provider().stream(user('x')))).rejects.toMatchObject({ kind: 'server' });
		await expect(collect(provider().stream(user('x')))).rejects.toMatchObject({ kind: 'incomplete' });
		expect(mock.requests).toHaveLength(2);
	});

	it('ends with an AbortError when aborted mid-stream', async () => {
		mock.script([{ type: 'hang', text: 'partial' }]);
		const controller = new AbortController();
		const run = async () => {
			for await (const event of provider().stream({ ...user('x'), signal: controller.signal })) {
				if (event.type === 'text') controller.abort();
			}
		};
		await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
		await vi.waitFor(() => expect(mock.requests[0].abortedByClient).toBe(true));
	});

	it('lists models', async () => {
		expect(await provider().listModels?.()).toEqual(['mock-model', 'mock-large']);
		expect(mock.requests[0].path).toBe('/v1/models');
	});
});

describe('buildAnthropicBody', () => {
	it('moves system text to the top and turns tool results into a user turn of tool_result blocks', () => {
		const body = buildAnthropicBody({
			model: 'm',
			max_tokens: 100,
			tools: [{ name: 'add', description: 'Adds', parameters: { type: 'object' } }],
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'Sum 1 and 2, and 3 and 4' },
				{
					role: 'assistant',
					content: '',
					tool_calls: [
						{ id: 't1', name: 'add', arguments: '{"a":1,"b":2}' },
						{ id: 't2', name: 'add', arguments: '{"a":3,"b":4}' }
					]
				},
				{ role: 'tool', content: '3', tool_call_id: 't1' },
				{ role: 'tool', content: '7', tool_call_id: 't2' },
				{ role: 'system', content: 'Answer in French.' }
			]
		});
		expect(body).toEqual({
			model: 'm',
			max_tokens: 100,
			stream: true,
			system: 'Be brief.\n\nAnswer in French.',
			tools: [{ name: 'add', description: 'Adds', input_schema: { type: 'object' } }],
			messages: [
				{ role: 'user', content: [{ type: 'text', text: 'Sum 1 and 2, and 3 and 4' }] },
				{
					role: 'assistant',
					content: [
						{ type: 'tool_use', id: 't1', name: 'add', input: { a: 1, b: 2 } },
						{ type: 'tool_use', id: 't2', name: 'add', input: { a: 3, b: 4 } }
					]
				},
				{
					role: 'user',
					content: [
						{ type: 'tool_result', tool_use_id: 't1', content: '3' },
						{ type: 'tool_result', tool_use_id: 't2', content: '7' }
					]
				}
			]
		});
	});
});
