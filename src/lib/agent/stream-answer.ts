// Streams one model response into one assistant row: text is shown as it arrives and
// checkpointed in short writes, so a reload mid-stream keeps the partial answer.
import { updateMessage } from '../db/message-verbs';
import type { MessageStatus } from '../db/schema';
import { isAbortError } from '../providers/abort';
import { ProviderError, type ChatRequest, type ToolCall, type Usage } from '../providers/types';
import type { TurnDeps, TurnEvent } from './turn-deps';
import { cutShortMessage, OUTPUT_LIMIT_MESSAGE } from './cut-short';

export interface StreamedAnswer {
	content: string;
	toolCalls: ToolCall[];
	usage: Usage | null;
	status: MessageStatus;
	error?: string;
	/** The row disappeared mid-stream (the session was deleted): stop the turn. */
	gone: boolean;
	/** The provider said the request did not fit its context window (an error or a stop reason). */
	overflow: boolean;
	/** Tool results the provider says it cleared from its own context while answering. */
	cleared: number;
}

export { OUTPUT_LIMIT_MESSAGE };

export async function streamAnswer(
	deps: TurnDeps,
	request: ChatRequest,
	key: [string, number],
	onEvent: (event: TurnEvent) => void
): Promise<StreamedAnswer> {
	const now = deps.now ?? Date.now;
	const every = deps.checkpointMs ?? 250;
	const answer: StreamedAnswer = { content: '', toolCalls: [], usage: null, status: 'complete', gone: false, overflow: false, cleared: 0 };
	let finishReason: string | null = null;
	let saved = '';
	let lastWrite = -Infinity;
	let trailing: ReturnType<typeof setTimeout> | undefined;
	// Writes run one after another, so an older text never lands after a newer one.
	let writing: Promise<void> = Promise.resolve();
	const save = (): Promise<void> =>
		(writing = writing.catch(() => {}).then(async () => {
			if (answer.gone || answer.content === saved) return;
			const content = answer.content;
			lastWrite = now();
			if (await updateMessage(deps.db, key, { content })) saved = content;
			else answer.gone = true;
		}));
	try {
		for await (const event of deps.provider.stream(request)) {
			if (answer.gone) return answer;
			if (event.type === 'text') {
				answer.content += event.text;
				onEvent({ type: 'text', key, text: answer.content });
				// The first text is saved at once, then at most every `every` ms; when the stream
				// goes quiet (a slow server, a long tool call), the text shown so far is saved anyway.
				if (now() - lastWrite >= every) await save();
				// A failed checkpoint is not fatal here: the final write reports a broken database.
				else
					trailing ??= setTimeout(() => {
						trailing = undefined;
						void save().catch(() => {});
					}, every);
				if (answer.gone) return answer;
			} else if (event.type === 'tool_call') answer.toolCalls.push(event.call);
			else if (event.type === 'usage') answer.usage = event.usage;
			else if (event.type === 'context_compacted') answer.cleared += event.cleared_tool_results;
			else if (event.type === 'done') finishReason = event.finish_reason;
		}
		const cutShort = cutShortMessage(finishReason);
		if (request.signal?.aborted) answer.status = 'aborted';
		else if (cutShort !== null) {
			// Cut off (output limit, filter, refusal…): offered for Retry, not shown as finished.
			answer.status = 'incomplete';
			answer.error = cutShort;
			// The context window ran out: the turn loop compacts and asks again.
			answer.overflow = finishReason === 'context_window_exceeded';
		}
	} catch (error) {
		if (isAbortError(error) || request.signal?.aborted) answer.status = 'aborted';
		else if (error instanceof ProviderError && error.kind === 'incomplete') {
			answer.status = 'incomplete';
			answer.error = error.message;
		} else {
			answer.status = 'error';
			answer.error = error instanceof Error ? error.message : String(error);
			answer.overflow = error instanceof ProviderError && error.kind === 'overflow';
		}
	} finally {
		clearTimeout(trailing);
		// The caller's final write must not race a checkpoint still in flight.
		await writing.catch(() => {});
	}
	return answer;
}
