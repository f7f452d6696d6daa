// Anthropic's compaction and context editing against the mock server speaking the real
// protocol: the beta headers and edits each request needs, the compaction block a stream
// carries (or a failed one), compaction on demand, and each block sent back unchanged, first.
import { describe, expect, it } from 'vitest';
import { useMockProvider } from '../../../tests/support/use-mock-provider';
import { createAnthropicProvider } from './anthropic';
import { anthropicContext } from './anthropic-context';
import { collect } from './fixtures/read-fixture';
import type { ChatMessage, NativeCompaction, ProviderConfig } from './types';

const mock = useMockProvider();

const provider = () => {
	const config: ProviderConfig = { id: 'claude', preset: 'anthropic', label: 'Claude', base_url: mock.url, api_key: 'sk-ant-test', model: 'claude-opus-4-6' };
	return createAnthropicProvider(config, undefined, { retry: { sleep: async () => {} } });
};
const MODEL = 'claude-opus-4-6';
const tools = [{ name: 'search', description: 'Search', parameters: { type: 'object' } }];
const summaryOf = (native: NativeCompaction, content: string): ChatMessage => ({ role: 'user', summary: true, content, native });

describe("Anthropic's server-side compaction", () => {
	it('asks for compaction at the threshold, and for tool-use clearing when tools are offered, with their betas', async () => {
		await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }], tools, context_management: { compactAt: 160_000 } }));
		const [request] = mock.requests;
		expect(request.headers['anthropic-beta']).toBe('context-management-2025-06-27,compact-2026-01-12');
		expect(request.body.context_management).toEqual({
			edits: [
				{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 160_000 } },
				{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 160_000 } }
			]
		});
	});

	it('never asks for a trigger below the 50,000 tokens the API accepts, and sends nothing without context management', async () => {
		await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }], context_management: { compactAt: 6_000 } }));
		await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }));
		expect(mock.requests[0].body.context_management).toEqual({ edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }] });
		expect(mock.requests[1].headers['anthropic-beta']).toBeUndefined();
		expect(mock.requests[1].body.context_management).toBeUndefined();
	});

	it('reports the streamed compaction block whole, and sends it back first, unchanged, with the edit declared', async () => {
		mock.script([{ type: 'text', text: 'Based on the summary…', compaction: { content: 'The user is building a scraper.', encrypted_content: 'opaque-1' } }]);
		const events = await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'Go on' }] }));
		const compacted = events.find((e) => e.type === 'native_compaction');
		const block = { type: 'compaction', content: 'The user is building a scraper.', encrypted_content: 'opaque-1' };
		expect(compacted).toEqual({ type: 'native_compaction', native: { api: 'anthropic', model: MODEL, items: [block], opaque: false }, summary: 'The user is building a scraper.' });
		if (compacted?.type !== 'native_compaction') return;

		const history = [summaryOf(compacted.native, 'The user is building a scraper.'), { role: 'user' as const, content: 'Go on' }, { role: 'assistant' as const, content: 'Based on the summary…' }, { role: 'user' as const, content: 'Next' }];
		await collect(provider().stream({ model: MODEL, messages: history }));
		const next = mock.requests[1];
		expect(next.body.messages[0]).toEqual({ role: 'assistant', content: [block] });
		expect(next.body.messages.slice(1).map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
		// The API refuses a block whose strategy the request does not declare.
		expect(next.headers['anthropic-beta']).toBe('compact-2026-01-12');
		expect(next.body.context_management).toEqual({ edits: [{ type: 'compact_20260112' }] });
	});

	it('treats a block with null content as a failed compaction: nothing to report', async () => {
		mock.script([{ type: 'text', text: 'Answer.', compaction: { content: null } }]);
		const events = await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }));
		expect(events.some((e) => e.type === 'native_compaction')).toBe(false);
	});

	it('says when the server paused after compacting', async () => {
		mock.script([{ type: 'text', text: '', compaction: {}, finish: 'compaction' }]);
		const events = await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }));
		expect(events.map((e) => e.type)).toEqual(['native_compaction', 'usage', 'done']);
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'compacted' });
	});

	it('reports tool uses cleared by context editing', async () => {
		mock.script([{ type: 'text', text: 'ok', clearedToolUses: 3 }]);
		const events = await collect(provider().stream({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }));
		expect(events).toContainEqual({ type: 'context_compacted', cleared_tool_results: 3 });
	});
});

describe("Anthropic's compaction on demand", () => {
	it('asks for a summary with the compaction parameter and its beta, and sends the signed block back first', async () => {
		const history: ChatMessage[] = [
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'Name the entities.' },
			{ role: 'assistant', content: 'Recipe and Step.' }
		];
		const [summary] = await provider().compact!({ model: MODEL, messages: history, tools, context_management: { compactAt: 100_000 } });
		const [request] = mock.requests;
		expect(request.path).toBe('/v1/messages');
		expect(request.headers['anthropic-beta']).toBe('compact-2026-09-04');
		expect(request.body).toMatchObject({ model: MODEL, system: 'Be brief.', stream: false, compaction: { type: 'summarize' } });
		// The summarizer reads the same tools; context management may not go with it.
		expect(request.body.tools).toHaveLength(1);
		expect(request.body.context_management).toBeUndefined();
		const block = { type: 'compaction', content: 'Mock summary 1 of 2 messages.', signature: 'sig_mock_1' };
		expect(summary).toEqual({ role: 'user', summary: true, content: block.content, native: { api: 'anthropic', model: MODEL, items: [block], opaque: false } });

		await collect(provider().stream({ model: MODEL, messages: [summary, { role: 'user', content: 'And fields?' }], tools, context_management: { compactAt: 100_000 } }));
		const next = mock.requests[1];
		expect(next.body.messages[0]).toEqual({ role: 'assistant', content: [block] });
		// Threshold compaction may not run on a request carrying a signed block; tool-use clearing may.
		expect(next.headers['anthropic-beta']).toBe('compact-2026-09-04,context-management-2025-06-27');
		expect(next.body.context_management).toEqual({ edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 100_000 } }] });
	});

	it('fails clearly when the provider returns no summary', async () => {
		const refused = { type: 'message', role: 'assistant', content: [], stop_reason: 'refusal', usage: { input_tokens: 0, output_tokens: 0 } };
		const context = anthropicContext({ model: MODEL, messages: [] }, true);
		expect(context).toEqual({ betas: ['compact-2026-09-04'], contextManagement: null });
		const fake = async () => new Response(JSON.stringify(refused), { status: 200, headers: { 'content-type': 'application/json' } });
		const config: ProviderConfig = { id: 'c', preset: 'anthropic', label: 'Claude', base_url: 'https://api.anthropic.com', api_key: 'k', model: MODEL };
		await expect(createAnthropicProvider(config, fake).compact!({ model: MODEL, messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(
			'The provider wrote no summary (stop reason: refusal)'
		);
	});
});
