// What a chat's settings put into the body of each wire format: every value in the provider's
// own field, and nothing at all for a value left unset (the provider's default applies).
import { describe, expect, it } from 'vitest';
import { createLocalModelProvider, type LocalEngine } from './local-model/local-model-provider';
import type { ChatRequest, ProviderConfig, RequestParams } from './types';
import { buildWireRequest } from './wire-request';
import { IN_BROWSER_TARGET, OFFLINE_TARGET, type WireTarget } from './wire-target';

const CHAT: WireTarget = { api: 'chat-completions', url: 'http://127.0.0.1:11434/v1/chat/completions', keyed: false };
const OPENAI_CHAT: WireTarget = { api: 'chat-completions', url: 'https://api.openai.com/v1/chat/completions', keyed: true, maxCompletionTokens: true };
const RESPONSES: WireTarget = { api: 'responses', url: 'https://api.openai.com/v1/responses', keyed: true };
const ANTHROPIC: WireTarget = { api: 'anthropic', url: 'https://api.anthropic.com/v1/messages', keyed: true };

const ALL: RequestParams = { temperature: 0.3, top_p: 0.9, max_tokens: 700, reasoning_effort: 'high' };
const SAMPLING: RequestParams = { temperature: 0.3, top_p: 0.9, max_tokens: 700 };

function request(params: RequestParams = {}, last: ChatRequest['messages'] = [{ role: 'user', content: 'Hi' }]): ChatRequest {
	return { model: 'm', messages: [{ role: 'system', content: 'Answer as a pirate.' }, ...last], ...params };
}

const bodyOf = (target: WireTarget, params?: RequestParams) => buildWireRequest(target, request(params)).body;

/** Every parameter field any wire format has: none may be in a body built without settings. */
const PARAM_FIELDS = ['temperature', 'top_p', 'max_tokens', 'max_completion_tokens', 'max_output_tokens', 'reasoning', 'reasoning_effort', 'thinking'];

describe('Chat Completions', () => {
	it('sends temperature, top_p, max_tokens and reasoning_effort as set', () => {
		expect(bodyOf(CHAT, ALL)).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 700, reasoning_effort: 'high', messages: [{ role: 'system', content: 'Answer as a pirate.' }, { role: 'user', content: 'Hi' }] });
	});

	it("sends the answer's limit as max_completion_tokens to OpenAI's own API", () => {
		const body = bodyOf(OPENAI_CHAT, ALL);
		expect(body.max_completion_tokens).toBe(700);
		expect(body).not.toHaveProperty('max_tokens');
	});

	it('sends none of them when unset', () => {
		for (const target of [CHAT, OPENAI_CHAT]) for (const field of PARAM_FIELDS) expect(bodyOf(target)).not.toHaveProperty(field);
	});

	it('sends a temperature of 0 (a value, not an unset one)', () => {
		expect(bodyOf(CHAT, { temperature: 0 }).temperature).toBe(0);
	});
});

describe('Responses', () => {
	it('sends temperature, top_p, max_output_tokens and reasoning.effort, the system prompt as instructions', () => {
		expect(bodyOf(RESPONSES, ALL)).toMatchObject({ temperature: 0.3, top_p: 0.9, max_output_tokens: 700, reasoning: { effort: 'high' }, instructions: 'Answer as a pirate.' });
	});

	it('sends none of them when unset', () => {
		for (const field of PARAM_FIELDS) expect(bodyOf(RESPONSES)).not.toHaveProperty(field);
	});
});

describe('Anthropic', () => {
	it('sends system, temperature, top_p and max_tokens', () => {
		expect(bodyOf(ANTHROPIC, SAMPLING)).toMatchObject({ system: 'Answer as a pirate.', temperature: 0.3, top_p: 0.9, max_tokens: 700 });
	});

	it('thinks with the budget of the effort on top of the answer, and then sends no temperature or top_p (the API refuses them)', () => {
		const body = bodyOf(ANTHROPIC, ALL);
		expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
		expect(body.max_tokens).toBe(16_384 + 700);
		expect(body).not.toHaveProperty('temperature');
		expect(body).not.toHaveProperty('top_p');
		expect(bodyOf(ANTHROPIC, { reasoning_effort: 'low' })).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1024 + 8192 });
	});

	it('does not think on a request that goes on after tool results (their thinking blocks are not kept)', () => {
		const after = request(ALL, [
			{ role: 'user', content: 'Weather?' },
			{ role: 'assistant', content: '', tool_calls: [{ id: 't1', name: 'weather', arguments: '{}' }] },
			{ role: 'tool', content: 'Sunny', tool_call_id: 't1' }
		]);
		const { body } = buildWireRequest(ANTHROPIC, after);
		expect(body).not.toHaveProperty('thinking');
		expect(body).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 700 });
	});

	it('sends only the max_tokens the API requires when unset', () => {
		const body = bodyOf(ANTHROPIC);
		expect(body.max_tokens).toBe(8192);
		for (const field of PARAM_FIELDS.filter((f) => f !== 'max_tokens')) expect(body).not.toHaveProperty(field);
	});
});

describe('models in the tab', () => {
	it('the offline model gets the system prompt, and no sampling it would not use', () => {
		const body = bodyOf(OFFLINE_TARGET, ALL);
		expect(body.messages).toEqual([{ role: 'system', content: 'Answer as a pirate.' }, { role: 'user', content: 'Hi' }]);
		for (const field of PARAM_FIELDS) expect(body).not.toHaveProperty(field);
	});

	it('the in-browser model is shown with temperature, top_p and max_tokens, no reasoning effort', () => {
		expect(bodyOf(IN_BROWSER_TARGET, ALL)).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 700 });
		expect(bodyOf(IN_BROWSER_TARGET, ALL)).not.toHaveProperty('reasoning_effort');
		for (const field of PARAM_FIELDS) expect(bodyOf(IN_BROWSER_TARGET)).not.toHaveProperty(field);
	});

	it("the in-browser model's engine is asked for them, its own answer budget when no limit is set", async () => {
		const config: ProviderConfig = {
			id: 'local-1',
			preset: 'wllama',
			label: 'In-browser model (llama.cpp)',
			base_url: '',
			api_key: '',
			model: 'tiny.gguf',
			local: { files: ['tiny.gguf'], bytes: 1000, context_window: 4096, trained_context: 4096, template: 'model' }
		};
		const seen: Record<string, unknown>[] = [];
		const engine: LocalEngine = {
			async chat(body) {
				seen.push(body);
				return (async function* () {
					yield { object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
				})();
			}
		};
		const provider = createLocalModelProvider(config, async () => engine);
		for (const params of [ALL, {}]) for await (const _ of provider.stream({ ...request(params), model: 'tiny.gguf' }));
		expect(seen[0]).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 700 });
		expect(seen[0]).not.toHaveProperty('reasoning_effort');
		expect(seen[1].max_tokens).toBe(409);
		expect(seen[1]).not.toHaveProperty('temperature');
		expect(seen[1]).not.toHaveProperty('top_p');
	});
});
