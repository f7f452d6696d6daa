// Turns a provider's failure (HTTP status + body, or an error object sent inside a stream)
// into a ProviderError whose kind tells the agent what to do: compact, retry, or give up.

import { readContextLimit } from './read-limit';
import { ProviderError, type ContextLimit, type ProviderErrorKind } from './types';

// Every provider words "the prompt does not fit" differently; these cover OpenAI, Anthropic,
// OpenRouter, vLLM, llama.cpp, Ollama, LM Studio, Mistral, Groq, xAI and Gemini's OpenAI shim.
const OVERFLOW_PATTERNS: RegExp[] = [
	/context[_ ]length[_ ]exceeded/i,
	/maximum context length/i,
	/max(imum)?[_ ]model[_ ]len(gth)?/i,
	/maximum prompt length/i,
	/prompt is too long/i,
	/input is too long/i,
	/input is too large/i,
	/too many tokens/i,
	/exceeds? (the |its |model'?s? )?(available |maximum )?context/i,
	/exceed_context_size/i,
	/context (window|size|limit)/i,
	/context the overflows|context overflow/i,
	/\bn_ctx\b/,
	/input token count .* exceeds/i,
	/too large for model with \d+ maximum context/i,
	/reduce the length of the messages/i,
	/request_too_large/i
];

export function isOverflowMessage(text: string): boolean {
	return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}

/** Seconds to wait from `Retry-After` (seconds or HTTP date) or OpenAI's `retry-after-ms`. */
export function parseRetryAfter(
	headers: Headers | null | undefined,
	now = Date.now()
): number | null {
	const ms = headers?.get('retry-after-ms');
	if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms) / 1000);
	const value = headers?.get('retry-after')?.trim();
	if (!value) return null;
	if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
	const date = Date.parse(value);
	return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

interface ErrorFields {
	message: string;
	type: string;
	code: string;
	status: number | null;
}

function asRecord(value: unknown): Record<string, unknown> | null {
	return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/** Reads the common shapes: `{error:{message,type,code}}`, `{error:"…"}`, `{message}`, `{detail}`. */
function readErrorFields(payload: unknown): ErrorFields {
	const root = asRecord(payload);
	const inner = asRecord(root?.error) ?? root;
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	let message =
		text(inner?.message) || text(root?.error) || text(root?.message) || text(root?.detail);
	// FastAPI-style servers (vLLM) nest the message in a list of details.
	if (!message && Array.isArray(root?.detail)) message = text(asRecord(root.detail[0])?.msg);
	// OpenRouter passes the upstream provider's raw error in metadata.raw.
	const raw = text(asRecord(inner?.metadata)?.raw);
	if (raw && !message.includes(raw)) message = message ? `${message}: ${raw}` : raw;
	const code = inner?.code;
	return {
		message,
		type: text(inner?.type) || text(root?.type),
		code: typeof code === 'number' ? String(code) : text(code),
		status: typeof code === 'number' && code >= 400 && code < 600 ? code : null
	};
}

// A spending cap, an exhausted quota or an empty balance answers 429 (or 400, 402) but
// waiting a few seconds does not help, so none of them is a rate limit to retry.
const QUOTA_PATTERNS: RegExp[] = [
	/insufficient_quota/,
	/reached your (specified )?(workspace |organization'?s? )?(API )?usage limits?/i,
	/spend(ing)? limit/i,
	/credit balance is too low/i,
	/insufficient (credits|balance)/i
];

function kindFor(status: number | null, fields: ErrorFields, raw: string): ProviderErrorKind {
	const haystack = `${fields.code} ${fields.type} ${fields.message} ${raw}`;
	if (status === 401 || status === 403) return 'auth';
	if (status === 413 || isOverflowMessage(haystack)) return 'overflow';
	if (QUOTA_PATTERNS.some((pattern) => pattern.test(haystack))) return 'bad_request';
	if (/authentication_error|permission_error|invalid_api_key/.test(haystack)) return 'auth';
	if (status === 429 || /rate_limit/.test(fields.type + fields.code)) return 'rate_limit';
	if (/overloaded_error|api_error|server_error/.test(fields.type)) return 'server';
	if (status !== null && (status >= 500 || status === 529)) return 'server';
	if (status !== null && status >= 400) return 'bad_request';
	return 'unknown';
}

function parseBody(body: string): unknown {
	try {
		return JSON.parse(body);
	} catch {
		return null;
	}
}

/**
 * Anthropic's (and Stainless-generated SDKs') `x-should-retry`: the server's own word on
 * whether a retry can help, which overrides what the status suggests. Null when absent.
 */
export function parseShouldRetry(headers: Headers | null | undefined): boolean | null {
	const value = headers?.get('x-should-retry')?.trim().toLowerCase();
	return value === 'true' ? true : value === 'false' ? false : null;
}

/** The numbers an overflow error states, read from everything it said. */
function limitOf(kind: ProviderErrorKind, ...texts: string[]): ContextLimit | null {
	return kind === 'overflow' ? readContextLimit(texts.join('\n')) : null;
}

function stringify(payload: unknown): string {
	try {
		return JSON.stringify(payload) ?? '';
	} catch {
		return '';
	}
}

/** Classifies a non-2xx HTTP response from its status, body text and headers. */
export function classifyHttpError(
	status: number,
	body: string,
	headers?: Headers | null
): ProviderError {
	const fields = readErrorFields(parseBody(body));
	const kind = kindFor(status, fields, fields.message ? '' : body);
	const detail = fields.message || body.trim().slice(0, 500) || 'no details';
	return new ProviderError(`HTTP ${status}: ${detail}`, {
		kind,
		status,
		retryAfter: parseRetryAfter(headers),
		retryable: parseShouldRetry(headers) ?? undefined,
		limit: limitOf(kind, fields.message, body)
	});
}

/** True when a JSON answer reads as an error object rather than a completion. */
export function isErrorPayload(payload: unknown): boolean {
	const root = asRecord(payload);
	return Boolean(root && (root.error || root.type === 'error' || root.object === 'error'));
}

/**
 * Classifies an error that came as a whole JSON answer with status 200 (llama.cpp, some
 * proxies): the provider's message and classification are kept as if it had sent a 4xx.
 */
export function classifyReplyError(payload: unknown): ProviderError {
	const fields = readErrorFields(payload);
	const label = fields.type || fields.code;
	const message = fields.message || 'no details';
	const kind = kindFor(fields.status, fields, '');
	return new ProviderError(`The provider answered with an error${label ? ` (${label})` : ''}: ${message}`, {
		kind,
		status: fields.status,
		limit: limitOf(kind, fields.message, stringify(payload))
	});
}

/**
 * Classifies an error object that arrived inside a stream after 200 OK: OpenAI-style
 * `data: {"error":{...}}` or Anthropic's `event: error`.
 */
export function classifyStreamError(payload: unknown): ProviderError {
	const fields = readErrorFields(payload);
	const kind = kindFor(fields.status, fields, '');
	const label = fields.type || fields.code;
	const message = fields.message || 'the provider reported an error';
	return new ProviderError(`Error during streaming${label ? ` (${label})` : ''}: ${message}`, {
		kind: kind === 'unknown' ? 'server' : kind,
		status: fields.status,
		limit: limitOf(kind, fields.message, stringify(payload))
	});
}
