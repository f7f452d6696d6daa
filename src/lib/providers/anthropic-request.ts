// Builds the JSON body of an Anthropic Messages request: system text goes top-level, tool
// calls become tool_use blocks, tool results become tool_result blocks in a user turn, and a
// compaction block the server returned goes back first, exactly as it came.

import { anthropicContext } from './anthropic-context';
import { canReplay } from './native-family';
import { fileText, type ChatFile, type ChatImage, type ChatMessage, type ChatRequest, type ReasoningEffort, type ToolCall } from './types';

type Block =
	| { type: 'text'; text: string }
	| { type: 'tool_use'; id: string; name: string; input: unknown }
	| { type: 'tool_result'; tool_use_id: string; content: string | Block[] }
	| Record<string, unknown>;

interface AnthropicMessage {
	role: 'user' | 'assistant';
	content: Block[];
}

/** Messages requires max_tokens; this is used when the caller sets none. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;

/** The thinking budget (tokens) of each reasoning effort: 1,024 is the least the API takes. */
export const THINKING_BUDGETS: Record<ReasoningEffort, number> = { low: 1024, medium: 4096, high: 16_384 };

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

const imageBlock = (image: ChatImage): Block => ({ type: 'image', source: { type: 'base64', media_type: image.mimeType, data: image.data } });

/** A file: a PDF as a document block (Claude reads its pages, text and pictures), else its text. */
const fileBlock = (file: ChatFile): Block =>
	file.pdf ? { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: file.pdf }, title: file.name } : { type: 'text', text: fileText(file) };

function toBlocks(message: ChatMessage): Block[] {
	if (message.role === 'tool') {
		// A result's images go inside it, after its text, as base64 image blocks.
		const images = (message.images ?? []).map(imageBlock);
		const content = images.length ? [{ type: 'text', text: message.content }, ...images] : message.content;
		return [{ type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content }];
	}
	// The API rejects empty text blocks, e.g. an assistant turn that is only tool calls.
	const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
	for (const call of message.tool_calls ?? []) {
		blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call) });
	}
	// What the user attached: each file, then each image.
	if (message.role === 'user') {
		blocks.push(...(message.files ?? []).map(fileBlock));
		blocks.push(...(message.images ?? []).map(imageBlock));
	}
	return blocks;
}

/** The role and blocks of one message; a compaction block is the assistant's, unchanged. */
function toTurn(message: ChatMessage, model: string): { role: AnthropicMessage['role']; blocks: Block[] } {
	if (message.native && canReplay(message.native, 'anthropic', model)) return { role: 'assistant', blocks: message.native.items as Block[] };
	return { role: message.role === 'assistant' ? 'assistant' : 'user', blocks: toBlocks(message) };
}

/** Consecutive turns of one role are merged so parallel tool results share one user turn. */
function toAnthropicMessages(messages: ChatMessage[], model: string): AnthropicMessage[] {
	const out: AnthropicMessage[] = [];
	for (const message of messages) {
		if (message.role === 'system') continue;
		const { role, blocks } = toTurn(message, model);
		if (blocks.length === 0) continue;
		const last = out[out.length - 1];
		if (last?.role === role) last.content.push(...blocks);
		else out.push({ role, content: blocks });
	}
	return out;
}

/**
 * The body and beta headers of a request. `compacting` asks for a summary of the conversation
 * instead of an answer (compaction on demand), as one whole JSON answer.
 */
export function buildAnthropicRequest(request: ChatRequest, compacting = false): { body: Record<string, unknown>; betas: string[] } {
	const system = request.messages
		.filter((message) => message.role === 'system')
		.map((message) => message.content)
		.join('\n\n');
	const body: Record<string, unknown> = {
		model: request.model,
		max_tokens: request.max_tokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
		messages: toAnthropicMessages(request.messages, request.model),
		stream: !compacting
	};
	if (system) body.system = system;
	if (!compacting) Object.assign(body, samplingOf(request));
	if (request.tools?.length) {
		body.tools = request.tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			input_schema: tool.parameters
		}));
	}
	const context = anthropicContext(request, compacting);
	if (compacting) body.compaction = { type: 'summarize' };
	if (context.contextManagement) body.context_management = context.contextManagement;
	return { body, betas: context.betas };
}

/**
 * Temperature, top_p and thinking. Thinking's budget comes on top of the answer's own tokens
 * (max_tokens counts both); with thinking on, the API takes no temperature and only a top_p of
 * 0.95 or more, so neither is sent. A request that goes on after tool results thinks no more:
 * the API wants the turn's thinking blocks back then, and answers are kept without them.
 */
function samplingOf(request: ChatRequest): Record<string, unknown> {
	if (request.reasoning_effort !== undefined && request.messages.at(-1)?.role !== 'tool') {
		const budget = THINKING_BUDGETS[request.reasoning_effort];
		return { max_tokens: budget + (request.max_tokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS), thinking: { type: 'enabled', budget_tokens: budget } };
	}
	return {
		...(request.temperature === undefined ? {} : { temperature: request.temperature }),
		...(request.top_p === undefined ? {} : { top_p: request.top_p })
	};
}

export function buildAnthropicBody(request: ChatRequest): Record<string, unknown> {
	return buildAnthropicRequest(request).body;
}
