// Builds the JSON body of an Anthropic Messages request: system text goes top-level, tool
// calls become tool_use blocks and tool results become tool_result blocks in a user turn.

import type { ChatMessage, ChatRequest, ToolCall } from './types';

type Block =
	| { type: 'text'; text: string }
	| { type: 'tool_use'; id: string; name: string; input: unknown }
	| { type: 'tool_result'; tool_use_id: string; content: string };

interface AnthropicMessage {
	role: 'user' | 'assistant';
	content: Block[];
}

/** Messages requires max_tokens; this is used when the caller sets none. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

function parseInput(call: ToolCall): unknown {
	try {
		const input: unknown = JSON.parse(call.arguments || '{}');
		// tool_use.input must be an object; wrap anything else rather than lose it.
		return input !== null && typeof input === 'object' && !Array.isArray(input)
			? input
			: { value: input };
	} catch {
		return { _raw_arguments: call.arguments };
	}
}

function toBlocks(message: ChatMessage): Block[] {
	if (message.role === 'tool') {
		return [
			{ type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content: message.content }
		];
	}
	// The API rejects empty text blocks, e.g. an assistant turn that is only tool calls.
	const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
	for (const call of message.tool_calls ?? []) {
		blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call) });
	}
	return blocks;
}

/** Consecutive turns of one role are merged so parallel tool results share one user turn. */
function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
	const out: AnthropicMessage[] = [];
	for (const message of messages) {
		if (message.role === 'system') continue;
		const role = message.role === 'assistant' ? 'assistant' : 'user';
		const blocks = toBlocks(message);
		if (blocks.length === 0) continue;
		const last = out[out.length - 1];
		if (last?.role === role) last.content.push(...blocks);
		else out.push({ role, content: blocks });
	}
	return out;
}

export function buildAnthropicBody(request: ChatRequest): Record<string, unknown> {
	const system = request.messages
		.filter((message) => message.role === 'system')
		.map((message) => message.content)
		.join('\n\n');
	const body: Record<string, unknown> = {
		model: request.model,
		max_tokens: request.max_tokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
		messages: toAnthropicMessages(request.messages),
		stream: true
	};
	if (system) body.system = system;
	if (request.tools?.length) {
		body.tools = request.tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			input_schema: tool.parameters
		}));
	}
	return body;
}
