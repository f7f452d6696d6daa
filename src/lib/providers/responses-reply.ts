// Turns a whole (non-streamed) OpenAI Responses answer into the same events a stream gives,
// and an error object (or a failed response) into the provider's classified error.
import { classifyReplyError, isErrorPayload } from './classify-error';
import { isRecord, listOf, unexpectedReply } from './frame-checks';
import { compactionEvent, incompleteReason, isOutputItem, messageText, readUsage, toolCallEvent, type OutputItem } from './responses-items';
import type { StreamEvent } from './types';

export function responsesReplyEvents(value: unknown, model: string): StreamEvent[] {
	if (isErrorPayload(value)) throw classifyReplyError(value);
	if (!isRecord(value) || !listOf(isOutputItem)(value.output)) throw unexpectedReply(value);
	const events: StreamEvent[] = [];
	let called = false;
	let refused = false;
	for (const [index, item] of (value.output as OutputItem[]).entries()) {
		if (item.type === 'message') {
			const shown = messageText(item);
			refused ||= shown.refused;
			if (shown.text) events.push({ type: 'text', text: shown.text });
		} else if (item.type === 'function_call') {
			called = true;
			events.push(toolCallEvent(item, index));
		} else if (item.type === 'compaction') events.push(compactionEvent(item, model));
	}
	const usage = readUsage(value.usage);
	if (usage) events.push({ type: 'usage', usage });
	const finish = value.status === 'incomplete' ? incompleteReason(value.incomplete_details) : called ? 'tool_calls' : refused ? 'refusal' : 'stop';
	events.push({ type: 'done', finish_reason: finish });
	return events;
}
