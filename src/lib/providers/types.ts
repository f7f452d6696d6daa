// The provider contract: every adapter (offline, OpenAI-compatible, Anthropic) turns a
// provider-neutral request into a stream of provider-neutral events.

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
	id: string;
	name: string;
	/** JSON text exactly as the model produced it. */
	arguments: string;
}

export interface ChatMessage {
	role: Role;
	content: string;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	/** Marks a compaction summary (or a provider's opaque compaction item) in a history. */
	summary?: boolean;
}

export interface ToolSchema {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: ToolSchema[];
	max_tokens?: number;
	signal?: AbortSignal;
}

export interface Usage {
	input_tokens: number;
	output_tokens: number;
}

/**
 * Why an answer ended, in one vocabulary for every adapter:
 * - `stop`: the model finished; `tool_calls`: it stopped to call tools.
 * - `length`: cut off by the output limit (OpenAI `length`, Anthropic `max_tokens`).
 * - `content_filter`: the provider's content filter stopped it (OpenAI `content_filter`,
 *   Gemini's `SAFETY`-style reasons through OpenAI-compatible shims).
 * - `refusal`: the model declined to go on (Anthropic `refusal`).
 * - `context_window_exceeded`: the context window filled up mid-answer (Anthropic
 *   `model_context_window_exceeded`, Mistral `model_length`).
 * - `paused`: the provider paused a long turn to be continued later (Anthropic `pause_turn`).
 * - `error`: the provider ended the answer because of an error (OpenRouter, Mistral).
 * Every reason except `stop` and `tool_calls` means the answer was cut short. A reason no
 * adapter knows passes through unchanged.
 */
export type FinishReason =
	| 'stop'
	| 'tool_calls'
	| 'length'
	| 'content_filter'
	| 'refusal'
	| 'context_window_exceeded'
	| 'paused'
	| 'error'
	| (string & {});

export type StreamEvent =
	| { type: 'text'; text: string }
	| { type: 'tool_call'; call: ToolCall }
	| { type: 'usage'; usage: Usage }
	/**
	 * The provider compacted the request's context on its own (e.g. cleared its oldest tool
	 * results, as Anthropic's context editing does) and says how many tool results it dropped.
	 */
	| { type: 'context_compacted'; cleared_tool_results: number }
	/** What the provider is doing before the first words, for the user (the in-browser model: loading). */
	| { type: 'status'; text: string }
	/** How fast the answer was generated, as the model measured it (the in-browser model). */
	| { type: 'speed'; tokens_per_second: number }
	| { type: 'done'; finish_reason: FinishReason };

export interface Provider {
	/** Stable id of the configured provider (e.g. "offline", or a user-given id). */
	readonly id: string;
	/** Human label shown in the UI. */
	readonly label: string;
	/** True for the built-in offline model (no network, no key). */
	readonly offline: boolean;
	/**
	 * Streams one model response. Throws a ProviderError for HTTP errors, malformed streams,
	 * errors reported inside the stream and a stream that ends without its terminator
	 * (`kind: 'incomplete'`). Aborting `signal` ends the iteration with an AbortError.
	 */
	stream(request: ChatRequest): AsyncIterable<StreamEvent>;
	/** Models the provider offers, when it can list them. */
	listModels?(signal?: AbortSignal): Promise<string[]>;
	/**
	 * Native compaction: the provider rewrites a history into a shorter one that replaces it
	 * (OpenAI's Responses API `/responses/compact`; the offline model's own recap). The result
	 * is the whole new history, system messages excluded; entries marked `summary` stand for
	 * what was dropped.
	 */
	compact?(messages: ChatMessage[], signal?: AbortSignal): Promise<ChatMessage[]>;
}

export type ProviderErrorKind =
	| 'overflow'
	| 'rate_limit'
	| 'server'
	| 'auth'
	| 'bad_request'
	| 'network'
	| 'incomplete'
	| 'malformed'
	| 'unknown';

export class ProviderError extends Error {
	readonly kind: ProviderErrorKind;
	readonly status: number | null;
	/**
	 * True when retrying the same request later may succeed (429, 5xx, network, before
	 * streaming), unless the provider said otherwise (`x-should-retry`).
	 */
	readonly retryable: boolean;
	/** Seconds from a Retry-After header, when the provider sent one. */
	readonly retryAfter: number | null;

	constructor(
		message: string,
		options: { kind: ProviderErrorKind; status?: number | null; retryAfter?: number | null; retryable?: boolean }
	) {
		super(message);
		this.name = 'ProviderError';
		this.kind = options.kind;
		this.status = options.status ?? null;
		this.retryAfter = options.retryAfter ?? null;
		this.retryable = options.retryable ?? ['rate_limit', 'server', 'network'].includes(options.kind);
	}
}

export type ProviderPreset =
	| 'offline'
	| 'openai'
	| 'openrouter'
	| 'ollama'
	| 'lmstudio'
	| 'llamacpp'
	| 'vllm'
	| 'anthropic'
	| 'custom'
	| 'wllama';

/** A provider as the user configured it in Settings (stored in the settings table). */
export interface ProviderConfig {
	id: string;
	preset: ProviderPreset;
	label: string;
	base_url: string;
	api_key: string;
	model: string;
	/** The in-browser model's GGUF files and what their header says (preset `wllama` only). */
	local?: LocalModelInfo;
}

/** A GGUF model kept in this browser's Origin Private File System, as Settings saved it. */
export interface LocalModelInfo {
	/** File names in shard order (one, or every shard of a split model). */
	files: string[];
	bytes: number;
	/** The context the model is loaded with: its trained length, capped to keep memory in bounds. */
	context_window: number;
	/** The context length the GGUF metadata gives, when it gives one. */
	trained_context: number | null;
	/** 'model': the chat template from the GGUF; 'fallback': it has none, a plain one is used. */
	template: 'model' | 'fallback';
}
