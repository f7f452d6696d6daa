// Provider for Anthropic's Messages API, called straight from the browser.

import { anthropicReplyEvents } from './anthropic-reply';
import { decodeAnthropicStream } from './anthropic-stream';
import { buildAnthropicBody } from './anthropic-request';
import type { AdapterOptions, FetchLike } from './fetch-with-retry';
import { fetchModelIds, postForAnswer } from './http-calls';
import { guardStream, trimBaseUrl } from './guard-stream';
import { readSSE } from './sse';
import type { ChatRequest, Provider, ProviderConfig, StreamEvent } from './types';

function headersFor(config: ProviderConfig): Record<string, string> {
	return {
		'x-api-key': config.api_key,
		'anthropic-version': '2023-06-01',
		// Without it the API refuses CORS requests; the key is the user's own, in their own tab.
		'anthropic-dangerous-direct-browser-access': 'true'
	};
}

export function createAnthropicProvider(
	config: ProviderConfig,
	fetchImpl: FetchLike = (input, init) => fetch(input, init),
	options: AdapterOptions = {}
): Provider {
	// Users paste either https://api.anthropic.com or .../v1; both mean the same API.
	const base = trimBaseUrl(config.base_url).replace(/\/v1$/, '');

	async function* answer(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const reply = await postForAnswer(fetchImpl, `${base}/v1/messages`, headersFor(config), buildAnthropicBody(request), request.signal, options);
		if (reply.type === 'json') yield* anthropicReplyEvents(reply.value);
		else yield* decodeAnthropicStream(readSSE(reply.body, request.signal));
	}

	function stream(request: ChatRequest) {
		return guardStream(answer(request), request.signal);
	}

	function listModels(signal?: AbortSignal): Promise<string[]> {
		return fetchModelIds(fetchImpl, `${base}/v1/models`, headersFor(config), signal, options);
	}

	return { id: config.id, label: config.label, offline: false, stream, listModels };
}
