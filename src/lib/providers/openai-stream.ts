// Decodes an OpenAI Chat Completions SSE stream into provider-neutral events: text deltas,
// tool calls assembled from their index-keyed fragments, the final usage, and done.

import { classifyStreamError } from './classify-error';
import type { SSEMessage } from './sse';
import { ProviderError, type StreamEvent, type ToolCall, type Usage } from './types';

interface ToolCallDelta {
	index?: number;
	id?: string;
	function?: { name?: string; arguments?: string };
}

interface ChunkChoice {
	delta?: { content?: string | null; tool_calls?: ToolCallDelta[] };
	finish_reason?: string | null;
}

interface Chunk {
	choices?: ChunkChoice[];
	usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
	error?: unknown;
}

function parseChunk(data: string): Chunk {
	try {
		return JSON.parse(data) as Chunk;
	} catch {
		const excerpt = data.length > 120 ? `${data.slice(0, 120)}…` : data;
		throw new ProviderError(`Malformed stream: a data line is not valid JSON: ${excerpt}`, {
			kind: 'malformed'
		});
	}
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
	for await (const message of messages) {
		const data = message.data.trim();
		if (data === '[DONE]') {
			terminated = true;
			break;
		}
		if (data === '') continue;
		const chunk = parseChunk(data);
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
			for (const delta of choice.delta?.tool_calls ?? []) tools.add(delta);
			if (choice.finish_reason) {
				finishReason = choice.finish_reason;
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
	yield { type: 'done', finish_reason: finishReason ?? 'stop' };
}
