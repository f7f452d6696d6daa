// Decodes an Anthropic Messages SSE stream into provider-neutral events. Stop reasons are
// mapped to the OpenAI vocabulary (stop, length, tool_calls) so callers see one set.

import { classifyStreamError } from './classify-error';
import type { SSEMessage } from './sse';
import { ProviderError, type StreamEvent, type Usage } from './types';

interface UsageFields {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
	cache_read_input_tokens?: number | null;
}

interface AnthropicEvent {
	type?: string;
	index?: number;
	message?: { usage?: UsageFields };
	content_block?: { type?: string; id?: string; name?: string };
	delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
	usage?: UsageFields;
	error?: unknown;
}

const STOP_REASONS: Record<string, string> = {
	end_turn: 'stop',
	stop_sequence: 'stop',
	max_tokens: 'length',
	tool_use: 'tool_calls'
};

function parseEvent(data: string): AnthropicEvent {
	try {
		return JSON.parse(data) as AnthropicEvent;
	} catch {
		const excerpt = data.length > 120 ? `${data.slice(0, 120)}…` : data;
		throw new ProviderError(`Malformed stream: an event is not valid JSON: ${excerpt}`, {
			kind: 'malformed'
		});
	}
}

/** Cached prompt tokens still occupy the context window, so they count as input. */
function mergeUsage(usage: Usage, fields: UsageFields | undefined): void {
	if (!fields) return;
	const input =
		(fields.input_tokens ?? 0) +
		(fields.cache_creation_input_tokens ?? 0) +
		(fields.cache_read_input_tokens ?? 0);
	if (input > 0) usage.input_tokens = input;
	if (typeof fields.output_tokens === 'number') usage.output_tokens = fields.output_tokens;
}

export async function* decodeAnthropicStream(
	messages: AsyncIterable<SSEMessage>
): AsyncGenerator<StreamEvent> {
	const usage: Usage = { input_tokens: 0, output_tokens: 0 };
	const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
	let stopReason = 'end_turn';
	for await (const message of messages) {
		if (message.data.trim() === '') continue;
		const event = parseEvent(message.data);
		const type = event.type ?? message.event;
		if (type === 'error') throw classifyStreamError(event);
		const index = event.index ?? 0;
		if (type === 'message_start') mergeUsage(usage, event.message?.usage);
		else if (type === 'content_block_start' && event.content_block?.type === 'tool_use') {
			const { id = '', name = '' } = event.content_block;
			toolBlocks.set(index, { id, name, json: '' });
		} else if (type === 'content_block_delta') {
			if (event.delta?.type === 'text_delta' && event.delta.text) {
				yield { type: 'text', text: event.delta.text };
			} else if (event.delta?.type === 'input_json_delta') {
				const block = toolBlocks.get(index);
				if (block) block.json += event.delta.partial_json ?? '';
			}
		} else if (type === 'content_block_stop') {
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
		} else if (type === 'message_stop') {
			yield { type: 'usage', usage };
			yield { type: 'done', finish_reason: STOP_REASONS[stopReason] ?? stopReason };
			return;
		}
	}
	throw new ProviderError('The stream ended before the model finished its answer.', {
		kind: 'incomplete'
	});
}
