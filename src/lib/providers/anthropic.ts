// Provider for Anthropic's Messages API, called straight from the browser.

import { throwIfAborted } from './abort';
import { decodeAnthropicStream } from './anthropic-stream';
import { buildAnthropicBody } from './anthropic-request';
import { fetchWithRetry, type AdapterOptions, type FetchLike } from './fetch-with-retry';
import { guardStream, trimBaseUrl } from './guard-stream';
import { readSSE } from './sse';
import { ProviderError, type ChatRequest, type Provider, type ProviderConfig } from './types';

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

	async function* stream(request: ChatRequest) {
		const { signal } = request;
		throwIfAborted(signal);
		const response = await fetchWithRetry(
			fetchImpl,
			`${base}/v1/messages`,
			{
				method: 'POST',
				headers: {
					...headersFor(config),
					'content-type': 'application/json',
					accept: 'text/event-stream'
				},
				body: JSON.stringify(buildAnthropicBody(request)),
				signal
			},
			options.retry
		);
		if (!response.body) {
			throw new ProviderError('The provider answered without a body.', { kind: 'incomplete' });
		}
		yield* guardStream(decodeAnthropicStream(readSSE(response.body, signal)), signal);
	}

	async function listModels(signal?: AbortSignal): Promise<string[]> {
		const response = await fetchWithRetry(
			fetchImpl,
			`${base}/v1/models`,
			{ method: 'GET', headers: headersFor(config), signal },
			options.retry
		);
		const json = (await response.json()) as { data?: { id?: unknown }[] };
		return (json.data ?? []).flatMap((model) => (typeof model.id === 'string' ? [model.id] : []));
	}

	return { id: config.id, label: config.label, offline: false, stream, listModels };
}
