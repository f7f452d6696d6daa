// Provider for Anthropic's Messages API, called straight from the browser: streaming, tool
// use, the server's own compaction and context editing, compaction on demand, model listing.

import { compactionBlockEvent, isCompactionBlock } from './anthropic-compaction';
import { anthropicReplyEvents, isMessage } from './anthropic-reply';
import { decodeAnthropicStream } from './anthropic-stream';
import { buildAnthropicRequest } from './anthropic-request';
import { classifyReplyError, isErrorPayload } from './classify-error';
import type { AdapterOptions, FetchLike } from './fetch-with-retry';
import { unexpectedReply } from './frame-checks';
import { fetchModelIds, postForAnswer, postForJson } from './http-calls';
import { guardStream, trimBaseUrl } from './guard-stream';
import { readSSE } from './sse';
import { ProviderError, type ChatMessage, type ChatRequest, type Provider, type ProviderConfig, type StreamEvent } from './types';
import type { WireTarget } from './wire-target';

function headersFor(config: ProviderConfig, betas: readonly string[] = []): Record<string, string> {
	const headers: Record<string, string> = {
		'x-api-key': config.api_key,
		'anthropic-version': '2023-06-01',
		// Without it the API refuses CORS requests; the key is the user's own, in their own tab.
		'anthropic-dangerous-direct-browser-access': 'true'
	};
	if (betas.length) headers['anthropic-beta'] = betas.join(',');
	return headers;
}

/** The summary a compaction request returned, as the history that replaces what it read. */
function readSummary(value: unknown, model: string): ChatMessage[] {
	if (isErrorPayload(value)) throw classifyReplyError(value);
	if (!isMessage(value)) throw unexpectedReply(value);
	const block = value.content.find(isCompactionBlock);
	const event = value.stop_reason === 'compaction' && block ? compactionBlockEvent(block, model) : null;
	if (event?.type !== 'native_compaction') {
		throw new ProviderError(`The provider wrote no summary (stop reason: ${value.stop_reason ?? 'none'}); nothing changed.`, { kind: 'malformed' });
	}
	return [{ role: 'user', summary: true, content: event.summary ?? '', native: event.native }];
}

export function createAnthropicProvider(
	config: ProviderConfig,
	fetchImpl: FetchLike = (input, init) => fetch(input, init),
	options: AdapterOptions = {}
): Provider {
	// Users paste either https://api.anthropic.com or .../v1; both mean the same API.
	const base = trimBaseUrl(config.base_url).replace(/\/v1$/, '');

	const wire: WireTarget = { api: 'anthropic', url: `${base}/v1/messages`, keyed: true };

	async function* answer(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const { body, betas } = buildAnthropicRequest(request);
		const reply = await postForAnswer(fetchImpl, wire.url, headersFor(config, betas), body, request.signal, options);
		if (reply.type === 'json') yield* anthropicReplyEvents(reply.value, request.model);
		else yield* decodeAnthropicStream(readSSE(reply.body, request.signal), request.model);
	}

	async function compact(request: ChatRequest): Promise<ChatMessage[]> {
		const { body, betas } = buildAnthropicRequest(request, true);
		const value = await postForJson(fetchImpl, `${base}/v1/messages`, headersFor(config, betas), body, request.signal, options);
		return readSummary(value, request.model);
	}

	return {
		id: config.id,
		label: config.label,
		offline: false,
		nativeApi: 'anthropic',
		wire,
		stream: (request) => guardStream(answer(request), request.signal),
		listModels: (signal) => fetchModelIds(fetchImpl, `${base}/v1/models`, headersFor(config), signal, options),
		compact
	};
}
