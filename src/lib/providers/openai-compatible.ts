// Provider for every OpenAI-compatible Chat Completions server (OpenAI, OpenRouter, Ollama,
// LM Studio, llama.cpp, vLLM, custom): streaming, tool calls, usage, model listing.

import { throwIfAborted } from './abort';
import { fetchWithRetry, type AdapterOptions, type FetchLike } from './fetch-with-retry';
import { guardStream, trimBaseUrl } from './guard-stream';
import { buildOpenAIBody } from './openai-request';
import { decodeOpenAIStream } from './openai-stream';
import { readSSE } from './sse';
import { ProviderError, type ChatRequest, type Provider, type ProviderConfig } from './types';

function headersFor(config: ProviderConfig): Record<string, string> {
	// No content-type here: on GET it would force a CORS preflight some local servers refuse.
	const headers: Record<string, string> = {};
	if (config.api_key) headers.authorization = `Bearer ${config.api_key}`;
	return headers;
}

export function createOpenAICompatibleProvider(
	config: ProviderConfig,
	fetchImpl: FetchLike = (input, init) => fetch(input, init),
	options: AdapterOptions = {}
): Provider {
	const base = trimBaseUrl(config.base_url);

	async function* stream(request: ChatRequest) {
		const { signal } = request;
		throwIfAborted(signal);
		const body = buildOpenAIBody(request, config.preset === 'openai');
		const response = await fetchWithRetry(
			fetchImpl,
			`${base}/chat/completions`,
			{
				method: 'POST',
				headers: {
					...headersFor(config),
					'content-type': 'application/json',
					accept: 'text/event-stream'
				},
				body: JSON.stringify(body),
				signal
			},
			options.retry
		);
		if (!response.body) {
			throw new ProviderError('The provider answered without a body.', { kind: 'incomplete' });
		}
		yield* guardStream(decodeOpenAIStream(readSSE(response.body, signal)), signal);
	}

	async function listModels(signal?: AbortSignal): Promise<string[]> {
		const response = await fetchWithRetry(
			fetchImpl,
			`${base}/models`,
			{ method: 'GET', headers: headersFor(config), signal },
			options.retry
		);
		const json = (await response.json()) as { data?: { id?: unknown }[] };
		return (json.data ?? []).flatMap((model) => (typeof model.id === 'string' ? [model.id] : []));
	}

	return { id: config.id, label: config.label, offline: false, stream, listModels };
}
