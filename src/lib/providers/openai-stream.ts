// Decodes an OpenAI Chat Completions SSE stream into provider-neutral events: text deltas,
// tool calls assembled from their index-keyed fragments, the final usage, and done.

import { classifyStreamError } from './classify-error';
import { isNumber, isRecord, isString, listOf, optional, parseFrame, unexpectedEvent } from './frame-checks';
import type { SSEMessage } from './sse';
import type { FinishReason, StreamEvent, ToolCall, Usage } from './types';
import { ProviderError } from './types';

interface ToolCallDelta {
	index?: number;
	id?: string | null;
	function?: { name?: string | null; arguments?: string | null } | null;
}

interface ChunkChoice {
	/** `refusal`: OpenAI's text for a declined structured-output request, sent instead of content. */
	delta?: { content?: string | null; refusal?: string | null; tool_calls?: ToolCallDelta[] | null } | null;
	finish_reason?: string | null;
}

interface Chunk {
	choices?: ChunkChoice[] | null;
	usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
	error?: unknown;
}

// OpenAI's own reasons, and those of servers that speak its protocol with their own words
// (Mistral, TGI, Gemini's and Anthropic's compatibility layers).
const FINISH_REASONS: Record<string, FinishReason> = {
	stop: 'stop',
	eos: 'stop',
	eos_token: 'stop',
	stop_sequence: 'stop',
	end_turn: 'stop',
	length: 'length',
	max_tokens: 'length',
	tool_calls: 'tool_calls',
	function_call: 'tool_calls',
	tool_use: 'tool_calls',
	content_filter: 'content_filter',
	safety: 'content_filter',
	recitation: 'content_filter',
	blocklist: 'content_filter',
	prohibited_content: 'content_filter',
	spii: 'content_filter',
	refusal: 'refusal',
	model_length: 'context_window_exceeded',
	model_context_window_exceeded: 'context_window_exceeded',
	error: 'error'
};

/** The neutral finish reason for an OpenAI-compatible one (see FinishReason). */
export function normalizeOpenAIFinish(reason: string): FinishReason {
	return FINISH_REASONS[reason.toLowerCase()] ?? reason;
}

// A tool call's position in the answer; a far-off index would only make a sparse list.
const isIndex = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0 && (value as number) < 1024;

const isToolCallDelta = (value: unknown): boolean =>
	isRecord(value) &&
	optional(value.index, isIndex) &&
	optional(value.id, isString) &&
	optional(value.function, (fn) => isRecord(fn) && optional(fn.name, isString) && optional(fn.arguments, isString));

const isChoice = (value: unknown): boolean =>
	isRecord(value) &&
	optional(value.finish_reason, isString) &&
	optional(
		value.delta,
		(delta) =>
			isRecord(delta) &&
			optional(delta.content, isString) &&
			optional(delta.refusal, isString) &&
			optional(delta.tool_calls, listOf(isToolCallDelta))
	);

const isUsage = (value: unknown): boolean =>
	isRecord(value) && optional(value.prompt_tokens, isNumber) && optional(value.completion_tokens, isNumber);

/** One chunk, checked: anything but the documented shape is the provider's unexpected event. */
function readChunk(data: string): Chunk {
	const value = parseFrame(data, 'a data line');
	if (!isRecord(value)) throw unexpectedEvent(data);
	if (value.error) return value;
	if (!optional(value.choices, listOf(isChoice)) || !optional(value.usage, isUsage)) throw unexpectedEvent(data);
	return value as Chunk;
}

class ToolCallAssembler {
	private readonly calls: ToolCall[] = [];

	add(delta: ToolCallDelta): void {
		// Some servers (older Ollama, Gemini's shim) omit `index`; fall back to the id, then append.
		const byId = delta.id ? this.calls.findIndex((call) => call.id === delta.id) : -1;
		const index = delta.index ?? (byId >= 0 ? byId : this.calls.length);
		const call = (this.calls[index] ??= { id: '', name: '', arguments: '' });
		if (delta.id) call.id = delta.id;
		if (delta.function?.name) call.name += delta.function.name;
		if (delta.function?.arguments) call.arguments += delta.function.arguments;
	}

	/** Hands over the finished calls once; ids are made up for servers that send none. */
	take(): ToolCall[] {
		const done = this.calls
			.filter((call) => call !== undefined)
			.map((call, i) => ({ ...call, id: call.id || `call_${i}` }));
		this.calls.length = 0;
		return done;
	}
}

export async function* decodeOpenAIStream(
	messages: AsyncIterable<SSEMessage>
): AsyncGenerator<StreamEvent> {
	const tools = new ToolCallAssembler();
	let finishReason: string | null = null;
	let usage: Usage | null = null;
	let terminated = false;
	let refused = false;
	for await (const message of messages) {
		const data = message.data.trim();
		if (data === '[DONE]') {
			terminated = true;
			break;
		}
		if (data === '') continue;
		const chunk = readChunk(data);
		if (chunk.error) throw classifyStreamError(chunk);
		if (chunk.usage) {
			usage = {
				input_tokens: chunk.usage.prompt_tokens ?? 0,
				output_tokens: chunk.usage.completion_tokens ?? 0
			};
		}
		for (const choice of chunk.choices ?? []) {
			const content = choice.delta?.content;
			if (content) yield { type: 'text', text: content };
			const refusal = choice.delta?.refusal;
			if (refusal) {
				refused = true;
				yield { type: 'text', text: refusal };
			}
			for (const delta of choice.delta?.tool_calls ?? []) tools.add(delta);
			if (choice.finish_reason) {
				finishReason = normalizeOpenAIFinish(choice.finish_reason);
				for (const call of tools.take()) yield { type: 'tool_call', call };
			}
		}
	}
	// A finish_reason without [DONE] is accepted: several local servers close right after it.
	if (!terminated && finishReason === null) {
		throw new ProviderError('The stream ended before the model finished its answer.', {
			kind: 'incomplete'
		});
	}
	for (const call of tools.take()) yield { type: 'tool_call', call };
	if (usage) yield { type: 'usage', usage };
	// OpenAI ends a refusal with a plain 'stop'; it is still no answer to the question.
	yield { type: 'done', finish_reason: refused && (finishReason ?? 'stop') === 'stop' ? 'refusal' : (finishReason ?? 'stop') };
}
