// The in-browser model (llama.cpp in WebAssembly, through wllama): a provider like the others.
// Its engine speaks OpenAI's chunk shapes, so requests are built and chunks decoded by the
// OpenAI adapter's own code; what this adds is loading on first use, a Stop that ends the
// answer at once (the engine only notices between chunks), its errors, and the model's speed.
import { abortError, raceAbort, throwIfAborted } from '../abort';
import { isOverflowMessage } from '../classify-error';
import { guardStream } from '../guard-stream';
import { buildOpenAIBody, withoutImages } from '../openai-request';
import { decodeOpenAIStream } from '../openai-stream';
import type { SSEMessage } from '../sse';
import { ProviderError, type ChatRequest, type Provider, type ProviderConfig, type StreamEvent } from '../types';
import { templateFor } from './chat-template';
import { IN_BROWSER_TARGET } from '../wire-target';

/** A loaded model: streams OpenAI-shaped chat completion chunks for a request body. */
export interface LocalEngine {
	chat(body: Record<string, unknown>, signal?: AbortSignal): Promise<AsyncIterable<unknown>>;
}

/** Opens (loads once, then reuses) the engine of a configured in-browser model. */
export type OpenEngine = (config: ProviderConfig) => Promise<LocalEngine>;

/** Iterates `source`, ending with an AbortError the moment `signal` aborts, not at the next item. */
async function* abortable<T>(source: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T> {
	const iterator = source[Symbol.asyncIterator]();
	try {
		while (true) {
			const next = await raceAbort(iterator.next(), signal);
			if (next.done) return;
			yield next.value;
		}
	} finally {
		// Not awaited: the engine cancels its request on its own time; the answer has ended.
		void iterator.return?.()?.catch(() => {});
	}
}

/** The engine's errors in the app's vocabulary: a full context is an overflow (compact, retry). */
export function toProviderError(error: unknown): unknown {
	if (!(error instanceof Error) || error.name === 'AbortError' || error instanceof ProviderError) return error;
	const type = (error as { type?: unknown }).type;
	if (type === 'kv_cache_full' || isOverflowMessage(error.message)) {
		return new ProviderError(`The conversation no longer fits the in-browser model's context: ${error.message}`, { kind: 'overflow' });
	}
	return new ProviderError(`The in-browser model failed: ${error.message}`, { kind: 'unknown', retryable: false });
}

const speedOf = (chunk: unknown): number | null => {
	const timings = (chunk as { timings?: { predicted_per_second?: unknown } } | null)?.timings;
	const speed = timings?.predicted_per_second;
	return typeof speed === 'number' && Number.isFinite(speed) && speed > 0 ? speed : null;
};

/**
 * Tokens an answer may take when the request sets no limit: the output budget the app keeps free
 * in every request (a tenth of the context, at most 8,192). Without one, a model that never
 * says it is done would write until its context is full.
 */
export function answerBudget(config: ProviderConfig): number {
	return Math.min(8192, Math.floor((config.local?.context_window ?? 4096) / 10));
}

export function createLocalModelProvider(config: ProviderConfig, open: OpenEngine): Provider {
	async function* answer(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const { signal } = request;
		throwIfAborted(signal);
		let speed: number | null = null;
		try {
			// Loading takes seconds the first time (after a reload too): the answer says so, and
			// Stop does not wait for it. An engine already loaded wins the race at once.
			const opening = open(config);
			const NOT_YET = Symbol('loading');
			if ((await Promise.race([opening, Promise.resolve(NOT_YET)])) === NOT_YET) yield { type: 'status', text: 'Loading the model…' };
			const engine = await raceAbort(opening, signal);
			const { stop } = templateFor(config.local?.template ?? 'model');
			// The in-browser models read text only; a tool result's text already names its images.
			// They sample as the chat asks, and have no reasoning effort.
			const { reasoning_effort: _effort, ...asked } = request;
			const body = { ...buildOpenAIBody({ ...asked, messages: withoutImages(request.messages), max_tokens: request.max_tokens ?? answerBudget(config) }), ...(stop.length ? { stop } : {}) };
			const chunks = await raceAbort(engine.chat(body, signal), signal);
			async function* frames(): AsyncGenerator<SSEMessage> {
				for await (const chunk of abortable(chunks, signal)) {
					speed = speedOf(chunk) ?? speed;
					yield { data: JSON.stringify(chunk) };
				}
				yield { data: '[DONE]' };
			}
			for await (const event of decodeOpenAIStream(frames())) {
				if (event.type === 'done' && speed !== null) yield { type: 'speed', tokens_per_second: speed };
				yield event;
			}
		} catch (error) {
			if (signal?.aborted) throw abortError(signal);
			throw toProviderError(error);
		}
	}

	return {
		id: config.id,
		label: config.label,
		// Needs no network, but it is a real model: it writes real summaries, not the offline recap.
		offline: false,
		wire: IN_BROWSER_TARGET,
		stream: (request) => guardStream(answer(request), request.signal),
		listModels: async () => [config.model]
	};
}
