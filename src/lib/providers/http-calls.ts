// The HTTP calls of the adapters: POST a request for an answer (asked for as an event stream,
// read as whatever came: see read-reply), POST for a whole JSON answer (compaction on demand),
// and GET the model list. Retries happen only before the answer starts (see fetch-with-retry).
import { throwIfAborted } from './abort';
import { fetchWithRetry, type AdapterOptions, type FetchLike } from './fetch-with-retry';
import { isRecord, optional, unexpectedReply } from './frame-checks';
import { readReply, type ProviderReply } from './read-reply';

export async function postForAnswer(
	fetchImpl: FetchLike,
	url: string,
	headers: Record<string, string>,
	body: unknown,
	signal: AbortSignal | undefined,
	options: AdapterOptions,
	accept = 'text/event-stream'
): Promise<ProviderReply> {
	throwIfAborted(signal);
	const response = await fetchWithRetry(
		fetchImpl,
		url,
		{
			method: 'POST',
			headers: { ...headers, 'content-type': 'application/json', accept },
			body: JSON.stringify(body),
			signal
		},
		options.retry
	);
	return readReply(response);
}

/** POSTs for a whole JSON answer; an event stream instead is the provider's unexpected reply. */
export async function postForJson(
	fetchImpl: FetchLike,
	url: string,
	headers: Record<string, string>,
	body: unknown,
	signal: AbortSignal | undefined,
	options: AdapterOptions
): Promise<unknown> {
	const reply = await postForAnswer(fetchImpl, url, headers, body, signal, options, 'application/json');
	if (reply.type !== 'json') {
		void reply.body.cancel().catch(() => {});
		throw unexpectedReply('an event stream');
	}
	return reply.value;
}

export async function fetchModelIds(
	fetchImpl: FetchLike,
	url: string,
	headers: Record<string, string>,
	signal: AbortSignal | undefined,
	options: AdapterOptions
): Promise<string[]> {
	const response = await fetchWithRetry(fetchImpl, url, { method: 'GET', headers, signal }, options.retry);
	const reply = await readReply(response);
	const value = reply.type === 'json' ? reply.value : null;
	if (!isRecord(value) || !optional(value.data, Array.isArray)) throw unexpectedReply(value ?? 'an event stream');
	return ((value.data as unknown[] | null) ?? []).flatMap((model) => (isRecord(model) && typeof model.id === 'string' ? [model.id] : []));
}

/**
 * The headers of an OpenAI-style API (Chat Completions, Responses): the key as a bearer token,
 * when there is one. No content-type: on GET it would force a CORS preflight some local
 * servers refuse (postForAnswer adds it to POSTs).
 */
export function bearerHeaders(apiKey: string): Record<string, string> {
	return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}
