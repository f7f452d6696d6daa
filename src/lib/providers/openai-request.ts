// Builds the JSON body of an OpenAI Chat Completions request from a provider-neutral one.

import type { ChatMessage, ChatRequest, ToolSchema } from './types';

type OpenAIMessage =
	| { role: 'system' | 'user'; content: string }
	| {
			role: 'assistant';
			content: string | null;
			tool_calls?: {
				id: string;
				type: 'function';
				function: { name: string; arguments: string };
			}[];
	  }
	| { role: 'tool'; tool_call_id: string; content: string };

function toOpenAIMessage(message: ChatMessage): OpenAIMessage {
	if (message.role === 'tool') {
		return { role: 'tool', tool_call_id: message.tool_call_id ?? '', content: message.content };
	}
	if (message.role === 'assistant' && message.tool_calls?.length) {
		return {
			role: 'assistant',
			// OpenAI wants null rather than "" beside tool calls; some servers reject "".
			content: message.content === '' ? null : message.content,
			tool_calls: message.tool_calls.map((call) => ({
				id: call.id,
				type: 'function',
				function: { name: call.name, arguments: call.arguments }
			}))
		};
	}
	return { role: message.role, content: message.content };
}

function toOpenAITool(tool: ToolSchema) {
	return {
		type: 'function' as const,
		function: { name: tool.name, description: tool.description, parameters: tool.parameters }
	};
}

/**
 * `useMaxCompletionTokens`: OpenAI's own API rejects `max_tokens` on reasoning models,
 * while local servers (llama.cpp, older vLLM) only know `max_tokens`.
 */
export function buildOpenAIBody(
	request: ChatRequest,
	useMaxCompletionTokens = false
): Record<string, unknown> {
	const body: Record<string, unknown> = {
		model: request.model,
		messages: request.messages.map(toOpenAIMessage),
		stream: true,
		stream_options: { include_usage: true }
	};
	if (request.tools?.length) body.tools = request.tools.map(toOpenAITool);
	if (request.max_tokens !== undefined) {
		body[useMaxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = request.max_tokens;
	}
	return body;
}
