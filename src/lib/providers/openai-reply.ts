// Turns a whole (non-streamed) OpenAI Chat Completions answer into the same events a stream
// gives: a proxy or server that ignores `stream: true` still gets its text shown, and an
// error object sent with status 200 keeps the provider's message and classification.

import { classifyReplyError, isErrorPayload } from './classify-error';
import { isNumber, isRecord, isString, listOf, optional, unexpectedReply } from './frame-checks';
import { normalizeOpenAIFinish } from './openai-stream';
import type { StreamEvent } from './types';

interface CompletionMessage {
	content?: string | null;
	refusal?: string | null;
	tool_calls?: { id?: string | null; function: { name: string; arguments?: string | null } }[] | null;
}

interface Completion {
	choices: { message: CompletionMessage; finish_reason?: string | null }[];
	usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
}

const isToolCall = (value: unknown): boolean =>
	isRecord(value) &&
	optional(value.id, isString) &&
	isRecord(value.function) &&
	isString(value.function.name) &&
	optional(value.function.arguments, isString);

const isCompletion = (value: unknown): value is Completion =>
	isRecord(value) &&
	Array.isArray(value.choices) &&
	value.choices.length > 0 &&
	value.choices.every(
		(choice) =>
			isRecord(choice) &&
			optional(choice.finish_reason, isString) &&
			isRecord(choice.message) &&
			optional(choice.message.content, isString) &&
			optional(choice.message.refusal, isString) &&
			optional(choice.message.tool_calls, listOf(isToolCall))
	) &&
	optional(
		value.usage,
		(usage) => isRecord(usage) && optional(usage.prompt_tokens, isNumber) && optional(usage.completion_tokens, isNumber)
	);

/** The events of one whole answer; throws a ProviderError for an error or an unknown shape. */
export function openAIReplyEvents(value: unknown): StreamEvent[] {
	if (isErrorPayload(value)) throw classifyReplyError(value);
	if (!isCompletion(value)) throw unexpectedReply(value);
	// Only the first choice is shown, as in a stream (n = 1 is what is asked for).
	const [{ message, finish_reason }] = value.choices;
	const events: StreamEvent[] = [];
	const text = message.content || message.refusal;
	if (text) events.push({ type: 'text', text });
	for (const [i, call] of (message.tool_calls ?? []).entries()) {
		events.push({
			type: 'tool_call',
			call: { id: call.id || `call_${i}`, name: call.function.name, arguments: call.function.arguments || '{}' }
		});
	}
	if (value.usage) {
		const { prompt_tokens, completion_tokens } = value.usage;
		events.push({ type: 'usage', usage: { input_tokens: prompt_tokens ?? 0, output_tokens: completion_tokens ?? 0 } });
	}
	const reason = !message.content && message.refusal ? 'refusal' : normalizeOpenAIFinish(finish_reason ?? 'stop');
	events.push({ type: 'done', finish_reason: reason });
	return events;
}
