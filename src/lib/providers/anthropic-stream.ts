// Decodes an Anthropic Messages SSE stream into provider-neutral events. Stop reasons are
// mapped to the neutral vocabulary (see FinishReason) so callers see one set.

import { applyCompactionDelta, compactionBlockEvent, isCompactionBlock } from './anthropic-compaction';
import { classifyStreamError } from './classify-error';
import { isNumber, isRecord, isString, optional, parseFrame, unexpectedEvent } from './frame-checks';
import type { SSEMessage } from './sse';
import { ProviderError, type FinishReason, type StreamEvent, type Usage } from './types';

export interface UsageFields {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
	cache_read_input_tokens?: number | null;
}

interface AnthropicEvent {
	type?: string | null;
	index?: number | null;
	message?: { usage?: UsageFields | null } | null;
	content_block?: { type?: string | null; id?: string | null; name?: string | null } | null;
	delta?: { type?: string | null; text?: string | null; partial_json?: string | null; stop_reason?: string | null; content?: string | null } | null;
	usage?: UsageFields | null;
	error?: unknown;
	/** Context editing (a beta): what the server cleared from this request's context. */
	context_management?: unknown;
}

/**
 * Tool results the server cleared with context editing (`clear_tool_uses_*` edits report
 * `cleared_tool_uses`): the oldest ones, so the app can drop the same from its history.
 */
export function clearedToolUses(contextManagement: unknown): number {
	if (!isRecord(contextManagement) || !Array.isArray(contextManagement.applied_edits)) return 0;
	return contextManagement.applied_edits.reduce(
		(sum: number, edit: unknown) => sum + (isRecord(edit) && isNumber(edit.cleared_tool_uses) && edit.cleared_tool_uses > 0 ? edit.cleared_tool_uses : 0),
		0
	);
}

const STOP_REASONS: Record<string, FinishReason> = {
	end_turn: 'stop',
	stop_sequence: 'stop',
	max_tokens: 'length',
	tool_use: 'tool_calls',
	refusal: 'refusal',
	model_context_window_exceeded: 'context_window_exceeded',
	pause_turn: 'paused',
	compaction: 'compacted'
};

/** The neutral finish reason for an Anthropic `stop_reason` (see FinishReason). */
export function normalizeAnthropicStop(reason: string): FinishReason {
	return STOP_REASONS[reason] ?? reason;
}

/** The token counts, when present, are numbers; other usage fields are not read. */
export const isUsageFields = (value: unknown): boolean =>
	isRecord(value) &&
	['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].every((key) =>
		optional(value[key], isNumber)
	);

const isEvent = (value: Record<string, unknown>): boolean =>
	optional(value.type, isString) &&
	optional(value.index, isNumber) &&
	optional(value.usage, isUsageFields) &&
	optional(value.message, (message) => isRecord(message) && optional(message.usage, isUsageFields)) &&
	optional(
		value.content_block,
		(block) =>
			isRecord(block) &&
			['type', 'id', 'name', 'content', 'encrypted_content', 'signature'].every((key) => optional(block[key], isString))
	) &&
	optional(
		value.delta,
		(delta) =>
			isRecord(delta) &&
			['type', 'text', 'partial_json', 'stop_reason', 'content', 'encrypted_content'].every((key) => optional(delta[key], isString))
	);

/** One event, checked: anything but the documented shape is the provider's unexpected event. */
function readEvent(data: string): AnthropicEvent {
	const value = parseFrame(data, 'an event');
	if (!isRecord(value)) throw unexpectedEvent(data);
	if (value.type === 'error' || value.error) return value;
	if (!isEvent(value)) throw unexpectedEvent(data);
	return value as AnthropicEvent;
}

/** Cached prompt tokens still occupy the context window, so they count as input. */
export function mergeUsage(usage: Usage, fields: UsageFields | null | undefined): void {
	if (!fields) return;
	const input =
		(fields.input_tokens ?? 0) +
		(fields.cache_creation_input_tokens ?? 0) +
		(fields.cache_read_input_tokens ?? 0);
	if (input > 0) usage.input_tokens = input;
	if (typeof fields.output_tokens === 'number') usage.output_tokens = fields.output_tokens;
}

/** `model`: the model asked, which a compaction block the server makes is tied to. */
export async function* decodeAnthropicStream(
	messages: AsyncIterable<SSEMessage>,
	model = ''
): AsyncGenerator<StreamEvent> {
	const usage: Usage = { input_tokens: 0, output_tokens: 0 };
	const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
	const compactions = new Map<number, Record<string, unknown>>();
	let stopReason = 'end_turn';
	for await (const message of messages) {
		if (message.data.trim() === '') continue;
		const event = readEvent(message.data);
		const type = event.type ?? message.event;
		if (type === 'error') throw classifyStreamError(event);
		const index = event.index ?? 0;
		if (type === 'message_start') mergeUsage(usage, event.message?.usage);
		else if (type === 'content_block_start' && event.content_block?.type === 'tool_use') {
			toolBlocks.set(index, { id: event.content_block.id ?? '', name: event.content_block.name ?? '', json: '' });
		} else if (type === 'content_block_start' && isCompactionBlock(event.content_block)) {
			compactions.set(index, { ...event.content_block });
		} else if (type === 'content_block_delta') {
			if (event.delta?.type === 'text_delta' && event.delta.text) {
				yield { type: 'text', text: event.delta.text };
			} else if (event.delta?.type === 'input_json_delta') {
				const block = toolBlocks.get(index);
				if (block) block.json += event.delta.partial_json ?? '';
			} else if (event.delta?.type === 'compaction_delta') {
				const block = compactions.get(index);
				if (block) applyCompactionDelta(block, event.delta);
			}
		} else if (type === 'content_block_stop') {
			const compaction = compactions.get(index);
			compactions.delete(index);
			const compacted = compaction && compactionBlockEvent(compaction, model);
			if (compacted) yield compacted;
			const block = toolBlocks.get(index);
			if (block) {
				toolBlocks.delete(index);
				// A tool with no parameters streams no JSON at all; its input is the empty object.
				const call = { id: block.id, name: block.name, arguments: block.json || '{}' };
				yield { type: 'tool_call', call };
			}
		} else if (type === 'message_delta') {
			if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
			mergeUsage(usage, event.usage);
			const cleared = clearedToolUses(event.context_management);
			if (cleared > 0) yield { type: 'context_compacted', cleared_tool_results: cleared };
		} else if (type === 'message_stop') {
			yield { type: 'usage', usage };
			yield { type: 'done', finish_reason: normalizeAnthropicStop(stopReason) };
			return;
		}
	}
	throw new ProviderError('The stream ended before the model finished its answer.', {
		kind: 'incomplete'
	});
}
