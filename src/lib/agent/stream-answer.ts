// Streams one model response into one assistant row: text is shown as it arrives and
// checkpointed in short writes, so a reload mid-stream keeps the partial answer.
import { updateMessage } from '../db/message-verbs';
import type { MessageStatus } from '../db/schema';
import { ProviderError, type ChatRequest, type ToolCall, type Usage } from '../providers/types';
import type { TurnDeps, TurnEvent } from './turn-deps';

export interface StreamedAnswer {
	content: string;
	toolCalls: ToolCall[];
	usage: Usage | null;
	status: MessageStatus;
	error?: string;
	/** The row disappeared mid-stream (the session was deleted): stop the turn. */
	gone: boolean;
}

export function isAbortError(error: unknown): boolean {
	return error instanceof Error && error.name === 'AbortError';
}

export async function streamAnswer(
	deps: TurnDeps,
	request: ChatRequest,
	key: [string, number],
	onEvent: (event: TurnEvent) => void
): Promise<StreamedAnswer> {
	const now = deps.now ?? Date.now;
	const every = deps.checkpointMs ?? 250;
	const answer: StreamedAnswer = { content: '', toolCalls: [], usage: null, status: 'complete', gone: false };
	// The first text is saved at once, then at most every `every` ms.
	let lastWrite = -Infinity;
	try {
		for await (const event of deps.provider.stream(request)) {
			if (event.type === 'text') {
				answer.content += event.text;
				onEvent({ type: 'text', key, text: answer.content });
				if (now() - lastWrite >= every) {
					lastWrite = now();
					if (!(await updateMessage(deps.db, key, { content: answer.content }))) {
						answer.gone = true;
						return answer;
					}
				}
			} else if (event.type === 'tool_call') answer.toolCalls.push(event.call);
			else if (event.type === 'usage') answer.usage = event.usage;
		}
		if (request.signal?.aborted) answer.status = 'aborted';
	} catch (error) {
		if (isAbortError(error) || request.signal?.aborted) answer.status = 'aborted';
		else if (error instanceof ProviderError && error.kind === 'incomplete') {
			answer.status = 'incomplete';
			answer.error = error.message;
		} else {
			answer.status = 'error';
			answer.error = error instanceof Error ? error.message : String(error);
		}
	}
	return answer;
}
