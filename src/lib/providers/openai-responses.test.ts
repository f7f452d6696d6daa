// The OpenAI Responses adapter against the mock server speaking the real protocol: streaming,
// function calls, statelessness, the server's own compaction item and compaction on demand,
// each item sent back exactly as it came.
import { describe, expect, it } from 'vitest';
import { useMockProvider } from '../../../tests/support/use-mock-provider';
import { collect } from './fixtures/read-fixture';
import { createOpenAIResponsesProvider } from './openai-responses';
import type { ChatMessage, ProviderConfig, StreamEvent } from './types';

const mock = useMockProvider();

const provider = () => {
	const config: ProviderConfig = { id: 'oai', preset: 'openai', label: 'OpenAI', base_url: `${mock.url}/v1`, api_key: 'sk-test', model: 'gpt-5.6' };
	return createOpenAIResponsesProvider(config, undefined, { retry: { sleep: async () => {} } });
};
const ask = (messages: ChatMessage[], extra = {}) => ({ model: 'gpt-5.6', messages, ...extra });
const textOf = (events: StreamEvent[]) => events.map((event) => (event.type === 'text' ? event.text : '')).join('');

describe('OpenAI Responses provider against the mock server', () => {
	it('streams an answer statelessly: the whole input each time, the system prompt as instructions, nothing stored', async () => {
		const events = await collect(provider().stream(ask([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Bonjour' }], { max_tokens: 99 })));
		expect(textOf(events)).toBe('Mock answer to: Bonjour');
		expect(events.slice(-2)).toEqual([expect.objectContaining({ type: 'usage' }), { type: 'done', finish_reason: 'stop' }]);
		const [request] = mock.requests;
		expect(request.path).toBe('/v1/responses');
		expect(request.headers.authorization).toBe('Bearer sk-test');
		expect(request.body).toEqual({
			model: 'gpt-5.6',
			instructions: 'Be brief.',
			input: [{ role: 'user', content: 'Bonjour' }],
			stream: true,
			store: false,
			max_output_tokens: 99
		});
	});

	it('assembles a function call and sends calls and results back as items, tools as flat functions', async () => {
		mock.script([{ type: 'tool_call', name: 'search', arguments: '{"q":"tides and moons"}', id: 'call_7', text: 'Looking.' }]);
		const tools = [{ name: 'search', description: 'Search', parameters: { type: 'object' } }];
		const events = await collect(provider().stream(ask([{ role: 'user', content: 'x' }], { tools })));
		expect(textOf(events)).toBe('Looking.');
		expect(events.filter((e) => e.type === 'tool_call' || e.type === 'done')).toEqual([
			{ type: 'tool_call', call: { id: 'call_7', name: 'search', arguments: '{"q":"tides and moons"}' } },
			{ type: 'done', finish_reason: 'tool_calls' }
		]);
		expect(mock.requests[0].body.tools).toEqual([{ type: 'function', name: 'search', description: 'Search', parameters: { type: 'object' }, strict: false }]);

		const history: ChatMessage[] = [
			{ role: 'user', content: 'x' },
			{ role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'call_7', name: 'search', arguments: '{}' }] },
			{ role: 'tool', content: 'found', tool_call_id: 'call_7' }
		];
		await collect(provider().stream(ask(history)));
		expect(mock.requests[1].body.input).toEqual([
			{ role: 'user', content: 'x' },
			{ role: 'assistant', content: 'Looking.' },
			{ type: 'function_call', call_id: 'call_7', name: 'search', arguments: '{}' },
			{ type: 'function_call_output', call_id: 'call_7', output: 'found' }
		]);
	});

	it('asks for server-side compaction at the given threshold and reports the compaction item it streams', async () => {
		mock.script([{ type: 'text', text: 'Carrying on.', compaction: {} }]);
		const events = await collect(provider().stream(ask([{ role: 'user', content: 'go' }], { context_management: { compactAt: 96_000 } })));
		expect(mock.requests[0].body.context_management).toEqual([{ type: 'compaction', compact_threshold: 96_000 }]);
		const compacted = events.find((e) => e.type === 'native_compaction');
		expect(compacted).toEqual({
			type: 'native_compaction',
			native: { api: 'openai-responses', model: 'gpt-5.6', items: [{ type: 'compaction', id: 'cmp_stream_1', encrypted_content: 'enc_stream_1' }], opaque: true },
			summary: null
		});
		expect(textOf(events)).toBe('Carrying on.');
	});

	it('compacts on demand through /responses/compact and sends the returned window back unchanged', async () => {
		const history: ChatMessage[] = [
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'Plan a trip to Kyoto.' },
			{ role: 'assistant', content: 'Day one: temples.' }
		];
		const [summary] = await provider().compact!(ask(history));
		expect(mock.requests[0].path).toBe('/v1/responses/compact');
		expect(mock.requests[0].body).toEqual({ model: 'gpt-5.6', instructions: 'Be brief.', input: [{ role: 'user', content: 'Plan a trip to Kyoto.' }, { role: 'assistant', content: 'Day one: temples.' }] });
		const window = [
			{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan a trip to Kyoto.' }] },
			{ type: 'compaction', id: 'cmp_mock_1', encrypted_content: 'enc_mock_1' }
		];
		expect(summary).toMatchObject({ role: 'user', summary: true, native: { api: 'openai-responses', model: 'gpt-5.6', items: window, opaque: true } });
		expect(summary.content).toContain('- Plan a trip to Kyoto.');

		await collect(provider().stream(ask([summary, { role: 'user', content: 'And day two?' }])));
		expect(mock.requests[1].body.input).toEqual([...window, { role: 'user', content: 'And day two?' }]);
		// A dated snapshot is the same model; another model gets only the readable text.
		await collect(provider().stream({ ...ask([summary]), model: 'gpt-5.6-2026-03-01' }));
		expect(mock.requests[2].body.input).toEqual(window);
		await collect(provider().stream({ ...ask([summary]), model: 'gpt-4.1' }));
		expect(mock.requests[3].body.input).toEqual([{ role: 'user', content: summary.content }]);
	});

	it('reports an answer cut at the output limit as length, and a failed response as its error', async () => {
		mock.script([{ type: 'text', text: 'Half', finish: 'length' }, { type: 'stream_error', text: 'x', message: 'The server broke' }, { type: 'cut', text: 'abc' }]);
		expect((await collect(provider().stream(ask([{ role: 'user', content: 'x' }])))).at(-1)).toEqual({ type: 'done', finish_reason: 'length' });
		await expect(collect(provider().stream(ask([{ role: 'user', content: 'x' }])))).rejects.toMatchObject({ kind: 'server', message: expect.stringContaining('The server broke') });
		await expect(collect(provider().stream(ask([{ role: 'user', content: 'x' }])))).rejects.toMatchObject({ kind: 'incomplete' });
	});

	it('classifies a context overflow with the numbers it states', async () => {
		const message = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.";
		mock.script([{ type: 'http_error', status: 400, body: { error: { message, type: 'invalid_request_error', code: 'context_length_exceeded' } } }]);
		await expect(collect(provider().stream(ask([{ role: 'user', content: 'x' }])))).rejects.toMatchObject({ kind: 'overflow', limit: { window: 8192, requested: 9120 } });
	});

	it('reads a whole JSON response as the same events', async () => {
		const output = [
			{ type: 'compaction', id: 'cmp_1', encrypted_content: 'enc' },
			{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'All at once.' }] }
		];
		mock.script([{ type: 'reply', body: { object: 'response', status: 'completed', output, usage: { input_tokens: 5, output_tokens: 3 } } }]);
		const events = await collect(provider().stream(ask([{ role: 'user', content: 'x' }])));
		expect(events.map((e) => e.type)).toEqual(['native_compaction', 'text', 'usage', 'done']);
	});

	it('lists models', async () => {
		expect(await provider().listModels?.()).toEqual(['mock-model', 'mock-large']);
		expect(mock.requests[0].path).toBe('/v1/models');
	});
});
