// The built-in offline model: no network, no key. It streams a deterministic Markdown answer
// (see offline-answer.ts for its conventions) word by word at a typing-like pace.

import { sleep as defaultSleep, throwIfAborted } from './abort';
import { composeOfflineAnswer } from './offline-answer';
import { compactOffline } from './offline-compact';
import { answerAfterTools, clearedToolResults, offlineToolCall } from './offline-tools';
import { PRESETS } from './presets';
import { withFileTexts, type ChatMessage, type ChatRequest, type Provider, type StreamEvent } from './types';

export interface OfflineOptions {
	/** Fixed pause between chunks; by default it varies between 15 and 25 ms. Tests pass 0. */
	delayMs?: number;
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	/**
	 * Exact token counts of texts (the app's tokenizer worker). Without it the offline model
	 * reports no usage at all rather than a guess.
	 */
	countTokens?: (texts: string[]) => Promise<number[]>;
}

// Long answers stream several words per chunk so even 20,000 words finish in seconds.
const MAX_CHUNKS = 400;

/** Splits text into word-sized chunks whose concatenation is exactly the text. */
export function chunkAnswer(text: string): string[] {
	const words = text.match(/\s+|\S+\s*/g) ?? [];
	const size = Math.max(1, Math.ceil(words.length / MAX_CHUNKS));
	const chunks: string[] = [];
	for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(''));
	return chunks;
}

/** What a request costs: every message's text and tool calls, as the app counts them. */
function promptTexts(messages: readonly ChatMessage[]): string[] {
	return messages.map((m) => [withFileTexts(m), ...(m.tool_calls ?? []).map((c) => `${c.name}(${c.arguments})`)].join('\n'));
}

export function createOfflineProvider(options: OfflineOptions = {}): Provider {
	const pause = options.sleep ?? defaultSleep;

	async function* stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const { signal } = request;
		throwIfAborted(signal);
		const cleared = clearedToolResults(request.messages);
		if (cleared > 0) yield { type: 'context_compacted', cleared_tool_results: cleared };
		const call = offlineToolCall(request.messages, request.tools);
		if (call) {
			yield { type: 'tool_call', call };
			yield* usage(request, '');
			yield { type: 'done', finish_reason: 'tool_calls' };
			return;
		}
		const answer = answerAfterTools(request.messages) ?? composeOfflineAnswer(request.messages, request.turn);
		const chunks = chunkAnswer(answer);
		for (let i = 0; i < chunks.length; i++) {
			const delay = options.delayMs ?? 15 + ((i * 7) % 11);
			if (delay > 0) await pause(delay, signal);
			throwIfAborted(signal);
			yield { type: 'text', text: chunks[i] };
		}
		throwIfAborted(signal);
		yield* usage(request, answer);
		yield { type: 'done', finish_reason: 'stop' };
	}

	async function* usage(request: ChatRequest, answer: string): AsyncGenerator<StreamEvent> {
		if (!options.countTokens) return;
		const counts = await options.countTokens([...promptTexts(request.messages), answer]);
		const output = counts.pop() ?? 0;
		yield { type: 'usage', usage: { input_tokens: counts.reduce((a, b) => a + b, 0), output_tokens: output } };
	}

	return {
		id: 'offline',
		label: PRESETS.offline.label,
		offline: true,
		stream,
		listModels: async () => ['offline-mini'],
		async compact(request) {
			throwIfAborted(request.signal);
			return compactOffline(request.messages);
		}
	};
}
