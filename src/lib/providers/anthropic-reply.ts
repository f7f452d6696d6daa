// Turns a whole (non-streamed) Anthropic Messages answer into the same events a stream gives,
// and an error object sent with status 200 into the provider's classified error.

import { compactionBlockEvent, isCompactionBlock } from './anthropic-compaction';
import { clearedToolUses, isUsageFields, mergeUsage, normalizeAnthropicStop, type UsageFields } from './anthropic-stream';
import { classifyReplyError, isErrorPayload } from './classify-error';
import { isRecord, isString, optional, unexpectedReply } from './frame-checks';
import type { StreamEvent, Usage } from './types';

type Block =
	| { type: 'text'; text: string }
	| { type: 'tool_use'; id: string; name: string; input?: Record<string, unknown> | null }
	| { type: string };

export interface Message {
	content: Block[];
	stop_reason?: string | null;
	usage?: UsageFields | null;
	context_management?: unknown;
}

const isBlock = (value: unknown): boolean =>
	isRecord(value) &&
	isString(value.type) &&
	(value.type !== 'text' || isString(value.text)) &&
	(value.type !== 'tool_use' || (isString(value.id) && isString(value.name) && optional(value.input, isRecord))) &&
	(value.type !== 'compaction' || isCompactionBlock(value));

export const isMessage = (value: unknown): value is Message =>
	isRecord(value) &&
	Array.isArray(value.content) &&
	value.content.every(isBlock) &&
	optional(value.stop_reason, isString) &&
	optional(value.usage, isUsageFields);

/** The events of one whole answer; throws a ProviderError for an error or an unknown shape. */
export function anthropicReplyEvents(value: unknown, model = ''): StreamEvent[] {
	if (isErrorPayload(value)) throw classifyReplyError(value);
	if (!isMessage(value)) throw unexpectedReply(value);
	const events: StreamEvent[] = [];
	for (const block of value.content) {
		const compacted = isCompactionBlock(block) ? compactionBlockEvent(block, model) : null;
		if (compacted) events.push(compacted);
		if (block.type === 'text' && 'text' in block && block.text) events.push({ type: 'text', text: block.text });
		if (block.type === 'tool_use' && 'name' in block) {
			events.push({ type: 'tool_call', call: { id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
		}
	}
	const cleared = clearedToolUses(value.context_management);
	if (cleared > 0) events.unshift({ type: 'context_compacted', cleared_tool_results: cleared });
	const usage: Usage = { input_tokens: 0, output_tokens: 0 };
	mergeUsage(usage, value.usage);
	events.push({ type: 'usage', usage });
	events.push({ type: 'done', finish_reason: normalizeAnthropicStop(value.stop_reason ?? 'end_turn') });
	return events;
}
