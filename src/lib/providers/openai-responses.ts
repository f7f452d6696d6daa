// Provider for OpenAI's Responses API: streaming, function calls, usage, the server's own
// compaction (`context_management`) and compaction on demand (`/responses/compact`), model
// listing. Stateless: the whole input goes out each time and nothing is stored by OpenAI.
import { classifyReplyError, isErrorPayload } from './classify-error';
import type { AdapterOptions, FetchLike } from './fetch-with-retry';
import { bearerHeaders, fetchModelIds, postForAnswer, postForJson } from './http-calls';
import { guardStream, trimBaseUrl } from './guard-stream';
import { readCompaction } from './responses-compact';
import { responsesReplyEvents } from './responses-reply';
import { buildResponsesBody, responsesBase } from './responses-request';
import { decodeResponsesStream } from './responses-stream';
import { readSSE } from './sse';
import type { ChatRequest, Provider, ProviderConfig, StreamEvent } from './types';
import type { WireTarget } from './wire-target';

const headersFor = (config: ProviderConfig) => bearerHeaders(config.api_key);

export function createOpenAIResponsesProvider(
	config: ProviderConfig,
	fetchImpl: FetchLike = (input, init) => fetch(input, init),
	options: AdapterOptions = {}
): Provider {
	const base = trimBaseUrl(config.base_url);

	const wire: WireTarget = { api: 'responses', url: `${base}/responses`, keyed: Boolean(config.api_key) };

	async function* answer(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const reply = await postForAnswer(fetchImpl, wire.url, headersFor(config), buildResponsesBody(request), request.signal, options);
		if (reply.type === 'json') yield* responsesReplyEvents(reply.value, request.model);
		else yield* decodeResponsesStream(readSSE(reply.body, request.signal), request.model);
	}

	async function compact(request: ChatRequest) {
		const value = await postForJson(fetchImpl, `${base}/responses/compact`, headersFor(config), responsesBase(request), request.signal, options);
		if (isErrorPayload(value)) throw classifyReplyError(value);
		return readCompaction(value, request.model);
	}

	return {
		id: config.id,
		label: config.label,
		offline: false,
		nativeApi: 'openai-responses',
		wire,
		stream: (request) => guardStream(answer(request), request.signal),
		listModels: (signal) => fetchModelIds(fetchImpl, `${base}/models`, headersFor(config), signal, options),
		compact
	};
}
