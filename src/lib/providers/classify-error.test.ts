import { describe, expect, it } from 'vitest';
import { classifyHttpError, classifyStreamError, parseRetryAfter } from './classify-error';

const json = (value: unknown) => JSON.stringify(value);

// Bodies as the providers actually send them when the prompt does not fit.
const OVERFLOW_BODIES: [string, number, string][] = [
	[
		'OpenAI',
		400,
		json({
			error: {
				message:
					"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
				type: 'invalid_request_error',
				param: 'messages',
				code: 'context_length_exceeded'
			}
		})
	],
	['OpenAI code only', 400, json({ error: { message: 'Bad', code: 'context_length_exceeded' } })],
	[
		'Anthropic',
		400,
		json({
			type: 'error',
			error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' }
		})
	],
	[
		'OpenRouter',
		400,
		json({
			error: {
				message:
					"This endpoint's maximum context length is 8192 tokens. However, you requested about 9500 tokens.",
				code: 400
			}
		})
	],
	['OpenRouter upstream', 400, json({ error: { message: 'Provider returned error', code: 400, metadata: { raw: 'Input exceeds the context window of this model' } } })],
	[
		'vLLM',
		400,
		json({
			object: 'error',
			message:
				"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4500 in the messages, 500 in the completion).",
			type: 'BadRequestError',
			code: 400
		})
	],
	['vLLM decoder', 400, json({ object: 'error', message: 'The decoder prompt (length 5000) is longer than the maximum model length of 4096.', code: 400 })],
	[
		'llama.cpp',
		400,
		json({
			error: {
				code: 400,
				message: 'the request exceeds the available context size, try increasing the context size or enable context shift',
				type: 'exceed_context_size_error',
				n_prompt_tokens: 5000,
				n_ctx: 4096
			}
		})
	],
	['llama.cpp old (500)', 500, json({ error: { code: 500, message: 'input is too large to process. increase the physical batch size', type: 'server_error' } })],
	['llama.cpp n_ctx', 400, json({ error: { message: 'prompt tokens (5000) exceed n_ctx (4096)' } })],
	['Ollama', 400, json({ error: { message: 'input length exceeds maximum context length', type: 'api_error' } })],
	['LM Studio', 400, json({ error: "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough." })],
	['Mistral', 400, json({ object: 'error', message: 'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length', type: 'invalid_request_message_error' })],
	['xAI', 400, json({ code: 'Client specified an invalid argument', error: "This model's maximum prompt length is 131072 but the request contains 140000 tokens." })],
	['generic too many tokens', 400, json({ detail: 'Too many tokens in the request' })],
	['plain text', 400, 'Error: input is too long for this model'],
	['HTTP 413', 413, 'Request Entity Too Large']
];

describe('classifyHttpError', () => {
	it.each(OVERFLOW_BODIES)('classifies the %s overflow shape as overflow', (_name, status, body) => {
		const error = classifyHttpError(status, body);
		expect(error.kind).toBe('overflow');
		expect(error.retryable).toBe(false);
	});

	it.each([
		[401, 'auth'],
		[403, 'auth'],
		[429, 'rate_limit'],
		[500, 'server'],
		[502, 'server'],
		[503, 'server'],
		[529, 'server'],
		[400, 'bad_request'],
		[404, 'bad_request'],
		[422, 'bad_request']
	] as const)('maps HTTP %i to %s', (status, kind) => {
		expect(classifyHttpError(status, json({ error: { message: 'Nope' } })).kind).toBe(kind);
	});

	it('does not mistake a rate limit mentioning tokens for an overflow', () => {
		const body = json({
			error: {
				message: 'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.',
				type: 'tokens',
				code: 'rate_limit_exceeded'
			}
		});
		expect(classifyHttpError(429, body).kind).toBe('rate_limit');
	});

	it('extracts a readable message from JSON, and falls back to the raw text', () => {
		const anthropic = json({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
		expect(classifyHttpError(401, anthropic).message).toBe('HTTP 401: invalid x-api-key');
		expect(classifyHttpError(502, '<html>Bad Gateway</html>').message).toBe('HTTP 502: <html>Bad Gateway</html>');
		expect(classifyHttpError(500, '').message).toBe('HTTP 500: no details');
	});

	it('reads Retry-After from a 429 and marks it retryable', () => {
		const error = classifyHttpError(429, '{}', new Headers({ 'retry-after': '7' }));
		expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfter: 7, retryable: true });
	});

	it('treats an exhausted quota as not worth retrying', () => {
		const body = json({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } });
		expect(classifyHttpError(429, body).retryable).toBe(false);
	});
});

describe('parseRetryAfter', () => {
	it('accepts seconds, an HTTP date and retry-after-ms', () => {
		const now = Date.parse('2025-01-01T00:00:00Z');
		expect(parseRetryAfter(new Headers({ 'retry-after': '12' }), now)).toBe(12);
		expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30);
		expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500' }), now)).toBe(1.5);
		expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
		expect(parseRetryAfter(new Headers(), now)).toBeNull();
	});
});

describe('classifyStreamError', () => {
	it('classifies an OpenAI error object sent after 200 OK', () => {
		const error = classifyStreamError({ error: { message: 'The server had an error', type: 'server_error' } });
		expect(error.kind).toBe('server');
		expect(error.message).toContain('The server had an error');
	});

	it('classifies Anthropic stream error events by their type', () => {
		const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
		expect(classifyStreamError(overloaded).kind).toBe('server');
		const limited = { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } };
		expect(classifyStreamError(limited).kind).toBe('rate_limit');
		const tooLong = { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } };
		expect(classifyStreamError(tooLong).kind).toBe('overflow');
	});

	it('uses a numeric code as the status (OpenRouter mid-stream errors)', () => {
		const error = classifyStreamError({ error: { code: 502, message: 'Provider disconnected unexpectedly' } });
		expect(error).toMatchObject({ kind: 'server', status: 502 });
	});
});
