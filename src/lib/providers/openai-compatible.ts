// Provider for every OpenAI-compatible Chat Completions server (OpenAI, OpenRouter, Ollama,
// LM Studio, llama.cpp, vLLM, custom): streaming, tool calls, usage, model listing.

import type { AdapterOptions, FetchLike } from './fetch-with-retry';
import { bearerHeaders, fetchModelIds, postForAnswer } from './http-calls';
import { guardStream, trimBaseUrl } from './guard-stream';
import { openAIReplyEvents } from './openai-reply';
import { buildOpenAIBody } from './openai-request';
import { decodeOpenAIStream } from './openai-stream';
import { readSSE } from './sse';
import type { ChatRequest, Provider, ProviderConfig, StreamEvent } from './types';
import type { WireTarget } from './wire-target';

const headersFor = (config: ProviderConfig) => bearerHeaders(config.api_key);

export function createOpenAICompatibleProvider(
	config: ProviderConfig,
	fetchImpl: FetchLike = (input, init) => fetch(input, init),
	options: AdapterOptions = {}
): Provider {
	const base = trimBaseUrl(config.base_url);

	const wire: WireTarget = { api: 'chat-completions', url: `${base}/chat/completions`, keyed: Boolean(config.api_key), maxCompletionTokens: config.preset === 'openai_chat', readsPdf: config.preset === 'openai_chat' };

	async function* answer(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const body = buildOpenAIBody(request, wire.maxCompletionTokens, wire.readsPdf);
		const reply = await postForAnswer(fetchImpl, wire.url, headersFor(config), body, request.signal, options);
		if (reply.type === 'json') yield* openAIReplyEvents(reply.value);
		else yield* decodeOpenAIStream(readSSE(reply.body, request.signal));
	}

	function stream(request: ChatRequest) {
		return guardStream(answer(request), request.signal);
	}

	function listModels(signal?: AbortSignal): Promise<string[]> {
		return fetchModelIds(fetchImpl, `${base}/models`, headersFor(config), signal, options);
	}

	return { id: config.id, label: config.label, offline: false, wire, stream, listModels };
}
