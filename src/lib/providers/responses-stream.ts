// Decodes an OpenAI Responses SSE stream into provider-neutral events: text deltas, function
// calls assembled from their argument deltas, a compaction item the server made on its own,
// the usage, and done. The stream must end with response.completed or response.incomplete;
// response.failed and error events become classified errors.
import { classifyStreamError } from './classify-error';
import { isNumber, isRecord, isString, optional, parseFrame, unexpectedEvent } from './frame-checks';
import { compactionEvent, incompleteReason, isOutputItem, readUsage, toolCallEvent, type OutputItem } from './responses-items';
import type { SSEMessage } from './sse';
import { ProviderError, type FinishReason, type StreamEvent, type Usage } from './types';

type Frame = Record<string, unknown> & { type: string };

/** Events this decoder reads; every other kind (created, in_progress, content parts…) is passed over. */
const READ = new Set([
	'response.output_text.delta',
	'response.refusal.delta',
	'response.output_item.added',
	'response.function_call_arguments.delta',
	'response.output_item.done',
	'response.completed',
	'response.incomplete',
	'response.failed'
]);

/** One event, with the fields this decoder reads checked. */
function readFrame(data: string): Frame {
	const value = parseFrame(data, 'an event');
	if (!isRecord(value) || !isString(value.type)) throw unexpectedEvent(data);
	const ok =
		!READ.has(value.type) ||
		(optional(value.output_index, isNumber) &&
			optional(value.delta, isString) &&
			optional(value.item, isOutputItem) &&
			optional(value.response, isRecord));
	if (!ok) throw unexpectedEvent(data);
	return value as Frame;
}

export async function* decodeResponsesStream(messages: AsyncIterable<SSEMessage>, model: string): AsyncGenerator<StreamEvent> {
	const calls = new Map<number, OutputItem & { arguments: string }>();
	let finish: FinishReason | null = null;
	let usage: Usage | null = null;
	let called = false;
	let refused = false;
	for await (const message of messages) {
		if (message.data.trim() === '') continue;
		const frame = readFrame(message.data);
		const index = (frame.output_index as number | undefined) ?? 0;
		const item = frame.item as OutputItem | undefined;
		switch (frame.type) {
			case 'response.output_text.delta':
				if (frame.delta) yield { type: 'text', text: frame.delta as string };
				break;
			case 'response.refusal.delta':
				refused = true;
				if (frame.delta) yield { type: 'text', text: frame.delta as string };
				break;
			case 'response.output_item.added':
				if (item?.type === 'function_call') calls.set(index, { ...item, arguments: item.arguments ?? '' });
				break;
			case 'response.function_call_arguments.delta': {
				const call = calls.get(index);
				if (call) call.arguments += (frame.delta as string | undefined) ?? '';
				break;
			}
			case 'response.output_item.done':
				if (item?.type === 'function_call') {
					called = true;
					yield toolCallEvent(item, index, calls.get(index)?.arguments);
					calls.delete(index);
				} else if (item?.type === 'compaction') yield compactionEvent(item, model);
				break;
			case 'response.completed':
			case 'response.incomplete': {
				const response = frame.response as Record<string, unknown> | undefined;
				usage = readUsage(response?.usage) ?? usage;
				finish = frame.type === 'response.incomplete' ? incompleteReason(response?.incomplete_details) : called ? 'tool_calls' : refused ? 'refusal' : 'stop';
				break;
			}
			case 'response.failed': {
				const response = frame.response as Record<string, unknown> | undefined;
				throw classifyStreamError({ error: response?.error ?? { message: 'The response failed.' } });
			}
			case 'error':
				throw classifyStreamError(frame);
		}
		if (finish !== null) break;
	}
	if (finish === null) throw new ProviderError('The stream ended before the model finished its answer.', { kind: 'incomplete' });
	if (usage) yield { type: 'usage', usage };
	yield { type: 'done', finish_reason: finish };
}
