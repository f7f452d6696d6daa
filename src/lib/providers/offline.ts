// The built-in offline model: no network, no key. It streams a deterministic Markdown answer
// (see offline-answer.ts for its conventions) word by word at a typing-like pace.

import { sleep as defaultSleep, throwIfAborted } from './abort';
import { composeOfflineAnswer } from './offline-answer';
import type { ChatRequest, Provider, StreamEvent } from './types';

export interface OfflineOptions {
	/** Fixed pause between chunks; by default it varies between 15 and 25 ms. Tests pass 0. */
	delayMs?: number;
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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

function estimateTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

export function createOfflineProvider(options: OfflineOptions = {}): Provider {
	const pause = options.sleep ?? defaultSleep;

	async function* stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
		const { signal } = request;
		throwIfAborted(signal);
		const answer = composeOfflineAnswer(request.messages);
		const chunks = chunkAnswer(answer);
		for (let i = 0; i < chunks.length; i++) {
			const delay = options.delayMs ?? 15 + ((i * 7) % 11);
			if (delay > 0) await pause(delay, signal);
			throwIfAborted(signal);
			yield { type: 'text', text: chunks[i] };
		}
		throwIfAborted(signal);
		const prompt = request.messages.map((message) => message.content).join('\n');
		yield {
			type: 'usage',
			usage: { input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(answer) }
		};
		yield { type: 'done', finish_reason: 'stop' };
	}

	return {
		id: 'offline',
		label: 'Offline model (built-in)',
		offline: true,
		stream,
		listModels: async () => ['offline-mini']
	};
}
