// Exact token counting and the request-size estimate built from cached per-message counts.
// Pure: the tokenizer itself is passed in, so this runs anywhere (the worker, Node tests).
import { toolTexts } from './tool-texts';

export type EncodingName = 'o200k_base' | 'cl100k_base';

/** The part of a gpt-tokenizer encoding module this file needs. */
export interface TokenEncoder {
	countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

// Models tokenized with cl100k_base; o200k_base (GPT-4o and later) is the default for
// everything else, including non-OpenAI models, where it is the closer approximation.
const CL100K_MODELS = [
	/^gpt-4(?:-|$)/, // gpt-4, gpt-4-turbo, gpt-4-0613; not gpt-4o, gpt-4.1, gpt-4.5
	/^gpt-3\.5/,
	/^gpt-35/, // Azure deployment names
	/^text-embedding-(?:3|ada)/,
	/^(?:text|code)-(?:davinci|curie|babbage|ada|cushman|search|similarity)/,
	/^(?:davinci|curie|babbage|ada)(?:-|$)/
];

export function encodingForModel(model: string): EncodingName {
	// Gateways prefix the vendor ("openai/gpt-4-turbo"); only the last segment matters.
	const name = model.trim().toLowerCase().split('/').pop() ?? '';
	return CL100K_MODELS.some((pattern) => pattern.test(name)) ? 'cl100k_base' : 'o200k_base';
}

// Text such as "<|endoftext|>" in a message is counted as ordinary text, never refused.
const NO_SPECIAL_TOKENS = new Set<string>();

export function countTokens(text: string, encoder: TokenEncoder): number {
	return text === '' ? 0 : encoder.countTokens(text, { disallowedSpecial: NO_SPECIAL_TOKENS });
}

export interface EstimateMessage {
	content: string;
	/** Cached count, reused when present (and when it was made with the same encoding). */
	tokens?: number;
	encoding?: string;
}

export interface EstimateInput {
	messages: readonly EstimateMessage[];
	systemPrompt?: string;
	/** Tool definitions as sent to the provider; each counted as its JSON (see tool-texts.ts). */
	toolSchemas?: readonly unknown[];
	/** Context blocks injected for this request (e.g. by plugins via pre_llm_call). */
	injected?: readonly string[];
	/** Output budget the provider must keep free for the reply. */
	reservedOutput?: number;
	/** Role and separator tokens the chat format adds around every message. */
	perMessageOverhead?: number;
	/** Encoding in use; cached counts tagged with a different one are recounted. */
	encoding?: string;
}

export interface RequestEstimate {
	total: number;
	messages: number;
	systemPrompt: number;
	toolSchemas: number;
	injected: number;
	/** Role and separator tokens around the conversation's messages. */
	overhead: number;
	/** The same around the system prompt (part of the request's fixed cost). */
	systemOverhead: number;
	reservedOutput: number;
	/** Count for every message, cached or fresh, in input order. */
	messageCounts: number[];
	/** Indices of messages counted now: the caller should cache these. */
	recounted: number[];
}

function isUsable(message: EstimateMessage, encoding: string | undefined): boolean {
	if (message.tokens === undefined || !Number.isFinite(message.tokens)) return false;
	return !encoding || !message.encoding || message.encoding === encoding;
}

/** A request's parts, each already counted. */
export interface CountedParts {
	/** The messages' counts, summed, and how many messages there are. */
	messages: number;
	messageCount: number;
	systemPrompt: number;
	/** A system prompt is sent (it takes a message's overhead, even if it counted 0). */
	hasSystemPrompt: boolean;
	toolSchemas: number;
	injected: number;
	reservedOutput?: number;
	perMessageOverhead?: number;
}

export type RequestTotals = Omit<RequestEstimate, 'messageCounts' | 'recounted'>;

/** The request estimate from counts already made: what the worker's estimate and the session tally share. */
export function composeEstimate(parts: CountedParts): RequestTotals {
	const perMessage = parts.perMessageOverhead ?? 4;
	const totals = {
		messages: parts.messages,
		systemPrompt: parts.systemPrompt,
		toolSchemas: parts.toolSchemas,
		injected: parts.injected,
		overhead: perMessage * parts.messageCount,
		systemOverhead: parts.hasSystemPrompt ? perMessage : 0,
		reservedOutput: parts.reservedOutput ?? 0
	};
	return { total: Object.values(totals).reduce((a, b) => a + b, 0), ...totals };
}

export function estimateRequestTokens(
	input: EstimateInput,
	count: (text: string) => number
): RequestEstimate {
	const { messages, systemPrompt = '', toolSchemas = [], injected = [] } = input;
	const recounted: number[] = [];
	const messageCounts = messages.map((message, index) => {
		if (isUsable(message, input.encoding)) return message.tokens as number;
		recounted.push(index);
		return count(message.content);
	});
	const totals = composeEstimate({
		messages: messageCounts.reduce((a, b) => a + b, 0),
		messageCount: messages.length,
		systemPrompt: systemPrompt ? count(systemPrompt) : 0,
		hasSystemPrompt: systemPrompt !== '',
		toolSchemas: toolTexts(toolSchemas).reduce((sum, text) => sum + count(text), 0),
		injected: injected.reduce((sum, text) => sum + count(text), 0),
		reservedOutput: input.reservedOutput,
		perMessageOverhead: input.perMessageOverhead
	});
	return { ...totals, messageCounts, recounted };
}
