import { describe, expect, it } from 'vitest';
import { classifyHttpError, classifyReplyError } from './classify-error';
import { readContextLimit } from './read-limit';

describe('readContextLimit reads the window and the request size from what providers say', () => {
	it.each([
		["This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.", 8192, 9120],
		['maximum context length is 8192 tokens. However, you requested 9120 tokens (8000 in the messages, 1120 in the completion).', 8192, 8000],
		['prompt is too long: 210,000 tokens > 200,000 maximum', 200_000, 210_000],
		['Trying to keep the first 9120 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens', 8192, 9120],
		['Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', 32_768, 40_000],
		['The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).', 1_048_576, 1_234_567]
	])('%s', (text, window, requested) => {
		expect(readContextLimit(text)).toEqual({ window, requested });
	});

	it('states what it can: a window alone, or nothing', () => {
		expect(readContextLimit('the context window of 32768 tokens was exceeded')).toEqual({ window: 32_768, requested: null });
		expect(readContextLimit('Your input exceeds the context window of this model.')).toBeNull();
	});

	it('comes with overflow errors only, from the message or from the error object', () => {
		const llamacpp = { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 9120, n_ctx: 8192 } };
		expect(classifyReplyError(llamacpp)).toMatchObject({ kind: 'overflow', limit: { window: 8192, requested: 9120 } });
		expect(classifyHttpError(400, JSON.stringify(llamacpp))).toMatchObject({ kind: 'overflow', limit: { window: 8192, requested: 9120 } });
		expect(classifyHttpError(429, '{"error":{"message":"Rate limit of 8192 tokens per minute"}}').limit).toBeNull();
	});
});
