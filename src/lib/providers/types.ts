// The provider contract: every adapter (offline, OpenAI-compatible, Anthropic) turns a
// provider-neutral request into a stream of provider-neutral events.
import type { WireApi, WireTarget } from './wire-target';

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
	/**
	 * Images a tool's result gave (on a `tool` message) or the user attached (on a `user`
	 * message), sent in each wire format's own way.
	 */
	images?: ChatImage[];
	/**
	 * Files the user attached (on a `user` message): each a text part headed by its name, or a
	 * PDF as a document where the provider reads PDFs.
	 */
	files?: ChatFile[];
	/** Marks a compaction summary (or a provider's opaque compaction item) in a history. */
	summary?: boolean;
	/**
	 * A provider's own compaction, as it came: an adapter of the same wire family and model
	 * family sends `native.items` back unchanged instead of `content`; any other sends `content`.
	 */
	native?: NativeCompaction;
}

/** An image in a request: its type (PNG, JPEG, GIF or WebP) and its bytes as base64. */
export interface ChatImage {
	mimeType: string;
	data: string;
}

/** A file in a request: its name and its text (a PDF's as read when attached). */
export interface ChatFile {
	name: string;
	text: string;
	/** A PDF's bytes as base64, for a provider that reads PDFs itself; others get `text`. */
	pdf?: string;
}

/** The text part a file goes in as: its name, then its text. */
export const fileText = (file: ChatFile): string => `File: ${file.name}\n\n${file.text}`;

/** A message's text with its files' text parts after it, for a model that takes one string. */
export const withFileTexts = (message: ChatMessage): string => [message.content, ...(message.files ?? []).map(fileText)].filter(Boolean).join('\n\n');

/** A data: URL of a PDF, as the OpenAI wire formats take it. */
export const pdfDataUrl = (base64: string): string => `data:application/pdf;base64,${base64}`;

/** A data: URL of an image, as the OpenAI wire formats take it. */
export const imageDataUrl = (image: ChatImage): string => `data:${image.mimeType};base64,${image.data}`;

/** The wire protocols whose compaction items can be replayed (see NativeCompaction). */
export type NativeApi = 'openai-responses' | 'anthropic';

/**
 * What a provider returned when it compacted a conversation: its items exactly as received
 * (OpenAI's `compaction` item with `encrypted_content`, Anthropic's `compaction` block), the
 * wire family and model that made them, and whether a person can read the summary.
 */
export interface NativeCompaction {
	api: NativeApi;
	model: string;
	/** Plain JSON, replayed in this order and never changed. */
	items: unknown[];
	/** True when the summary is encrypted and only the provider can read it. */
	opaque: boolean;
	/**
	 * The provider (its entry in Settings) that returned it, set when it is stored: another
	 * entry of the same wire (another account, another server) gets the text instead.
	 */
	provider?: string;
}

/**
 * Asks the provider to manage the request's context on its own where it can: compact on the
 * server (OpenAI's `context_management` compaction, Anthropic's `compact_20260112`) and clear
 * old tool uses (Anthropic's `clear_tool_uses_20250919`) once the request reaches `compactAt`
 * tokens by the provider's count.
 */
export interface ContextManagement {
	compactAt: number;
}

export interface ToolSchema {
	name: string;
	description: string;
	parameters: Record<string, unknown>;
}

/** How hard a reasoning model thinks before it answers (Responses and Chat Completions `reasoning` effort, Anthropic's thinking budget). */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/**
 * What a chat asks of the model beside its messages (see Chat settings): each goes in the wire
 * format's own field, and one left unset is not sent, so the provider's default applies.
 */
export interface RequestParams {
	temperature?: number;
	top_p?: number;
	/** The most tokens the answer may take. */
	max_tokens?: number;
	reasoning_effort?: ReasoningEffort;
}

export interface ChatRequest extends RequestParams {
	model: string;
	messages: ChatMessage[];
	tools?: ToolSchema[];
	signal?: AbortSignal;
	/** Server-side context management, for providers that have it (others ignore it). */
	context_management?: ContextManagement;
	/**
	 * Which of the session's user messages the request answers, counted over its whole history
	 * (messages a compaction folded into a summary included). The offline model numbers its
	 * replies with it; nothing of it is sent to a provider.
	 */
	turn?: number;
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
 * - `compacted`: the provider compacted the conversation and paused before answering (Anthropic
 *   `stop_reason: "compaction"`); the same request, sent again with the compaction, goes on.
 * Every reason except `stop`, `tool_calls` and `compacted` means the answer was cut short. A
 * reason no adapter knows passes through unchanged.
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
	| 'compacted'
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
	/**
	 * The provider compacted the conversation on its own while answering (an OpenAI `compaction`
	 * output item, an Anthropic `compaction` block): everything the request carried before the
	 * answer is replaced by `native`. `summary` is its readable text, when it has one.
	 */
	| { type: 'native_compaction'; native: NativeCompaction; summary: string | null }
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
	/** The wire family whose compaction items this provider replays, if it has one. */
	readonly nativeApi?: NativeApi;
	/** Where and how it sends answers (no key): lets the app show what the model received. */
	readonly wire?: WireTarget;
	/**
	 * Streams one model response. Throws a ProviderError for HTTP errors, malformed streams,
	 * errors reported inside the stream and a stream that ends without its terminator
	 * (`kind: 'incomplete'`). Aborting `signal` ends the iteration with an AbortError.
	 */
	stream(request: ChatRequest): AsyncIterable<StreamEvent>;
	/** Models the provider offers, when it can list them. */
	listModels?(signal?: AbortSignal): Promise<string[]>;
	/**
	 * Native compaction on demand: the provider rewrites `request.messages` into a shorter
	 * history that replaces them (OpenAI's `/responses/compact`, Anthropic's `compaction`
	 * parameter, the offline model's own recap). The system prompt and tools are sent as in
	 * the conversation. The result is the whole new history, system messages excluded; entries
	 * marked `summary` stand for what was dropped. Throws a ProviderError when the provider
	 * returned no summary.
	 */
	compact?(request: ChatRequest): Promise<ChatMessage[]>;
}

/** A context limit as a provider's overflow error states it, in the provider's own tokens. */
export interface ContextLimit {
	/** The model's context window. */
	window: number | null;
	/** What the refused request's input came to. */
	requested: number | null;
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
	/** What an overflow error says of the limit, when it states numbers (see read-limit). */
	readonly limit: ContextLimit | null;

	constructor(
		message: string,
		options: { kind: ProviderErrorKind; status?: number | null; retryAfter?: number | null; retryable?: boolean; limit?: ContextLimit | null }
	) {
		super(message);
		this.name = 'ProviderError';
		this.kind = options.kind;
		this.status = options.status ?? null;
		this.retryAfter = options.retryAfter ?? null;
		this.limit = options.limit ?? null;
		this.retryable = options.retryable ?? ['rate_limit', 'server', 'network'].includes(options.kind);
	}
}

export type ProviderPreset =
	| 'offline'
	| 'openai'
	| 'openai_chat'
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
	/** What the user calls it; without one, its preset and host (see provider-name.ts). */
	name?: string;
	base_url: string;
	api_key: string;
	model: string;
	/** The in-browser model's GGUF files and what their header says (preset `wllama` only). */
	local?: LocalModelInfo;
	/** Set when the user says its models read text only: they are never sent images. */
	text_only?: boolean;
}

/** Whether the models of a configured provider read images (the in-browser model and those marked text only do not). */
export const readsImages = (config: Pick<ProviderConfig, 'preset' | 'text_only'>): boolean => config.preset !== 'wllama' && config.preset !== 'offline' && !config.text_only;

/** The wire format whose rule counts an image sent through this provider ('offline': none is sent, none counted). */
export const imageApiOf = (config: Pick<ProviderConfig, 'preset' | 'text_only'>): WireApi =>
	!readsImages(config) ? 'offline' : config.preset === 'anthropic' ? 'anthropic' : config.preset === 'openai' ? 'responses' : 'chat-completions';

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
