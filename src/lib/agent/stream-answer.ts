// Streams one model response into one assistant row: text is shown as it arrives and
// checkpointed in short writes, so a reload mid-stream keeps the partial answer. A checkpoint
// that storage refuses (a full disk, a lost database) does not stop the stream: the text goes on
// in memory and on screen, and the answer is stored as failed, with the reason, once a write lands.
import { updateMessage } from '../db/message-verbs';
import { isConnectionLost, storageCause } from '../db/connection-loss';
import { isQuotaError } from '../db/storage-errors';
import type { MessageStatus } from '../db/schema';
import { isAbortError } from '../providers/abort';
import { fromProvider } from '../providers/native-family';
import { ProviderError, type ChatRequest, type ContextLimit, type ToolCall, type Usage } from '../providers/types';
import { costText } from '../context/context-rows';
import type { ProviderCompaction } from './compaction-types';
import type { TurnDeps, TurnEvent } from './turn-deps';
import { cutShortMessage, OUTPUT_LIMIT_MESSAGE } from './cut-short';
import { storageFailureMessage } from './storage-failure';

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
	/** What its overflow error stated of the window and the request, if anything. */
	limit?: ContextLimit | null;
	/** Tool results the provider says it cleared from its own context while answering. */
	cleared: number;
	/** A compaction the provider made on its own while answering (the last, if several). */
	native: ProviderCompaction | null;
	/** The provider compacted and paused: ask again, with the compaction, for the answer. */
	resume: boolean;
	/** The first checkpoint storage refused, if any: the answer is then stored as failed. */
	storageError?: unknown;
	/** Generation speed the model reported (the in-browser model does), kept on the row. */
	tokensPerSecond?: number;
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
	const answer: StreamedAnswer = { content: '', toolCalls: [], usage: null, status: 'complete', gone: false, overflow: false, cleared: 0, native: null, resume: false };
	let finishReason: string | null = null;
	let saved = '';
	let lastWrite = -Infinity;
	let trailing: ReturnType<typeof setTimeout> | undefined;
	// Writes run one after another, so an older text never lands after a newer one.
	let writing: Promise<void> = Promise.resolve();
	const save = (): Promise<void> =>
		(writing = writing.then(async () => {
			if (answer.gone || answer.content === saved) return;
			const content = answer.content;
			lastWrite = now();
			try {
				if (await updateMessage(deps.db, key, { content })) saved = content;
				else answer.gone = true;
			} catch (error) {
				// Kept in memory and on screen; the next checkpoint tries again.
				noteStorageFailure(answer, storageCause(deps.db, error));
			}
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
				else
					trailing ??= setTimeout(() => {
						trailing = undefined;
						void save();
					}, every);
				if (answer.gone) return answer;
			} else if (event.type === 'tool_call') answer.toolCalls.push(event.call);
			else if (event.type === 'usage') answer.usage = event.usage;
			else if (event.type === 'context_compacted') answer.cleared += event.cleared_tool_results;
			else if (event.type === 'native_compaction') answer.native = { native: fromProvider(event.native, deps.provider.id), summary: event.summary };
			else if (event.type === 'speed') answer.tokensPerSecond = event.tokens_per_second;
			else if (event.type === 'status') onEvent({ type: 'status', key, text: event.text });
			else if (event.type === 'done') finishReason = event.finish_reason;
		}
		answer.resume = finishReason === 'compacted' && answer.native !== null && !request.signal?.aborted;
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
			if (answer.overflow) answer.limit = (error as ProviderError).limit;
		}
	} finally {
		clearTimeout(trailing);
		// The caller's final write must not race a checkpoint still in flight.
		await writing;
	}
	return answer;
}

/** Whether an error says why storage failed (full, or the connection lost), not just that a write was aborted. */
const telling = (error: unknown) => isQuotaError(error) || isConnectionLost(error);

/** Keeps the first storage failure, or a later one that says more about why. */
function noteStorageFailure(answer: StreamedAnswer, error: unknown): void {
	if (answer.storageError === undefined || (!telling(answer.storageError) && telling(error))) answer.storageError = error;
}

/**
 * The answer's final write. An answer whose checkpoints storage refused is stored as an error
 * with the reason (the provider's own error, if any, after it). When even this write fails, the
 * answer is handed to the caller as an `unsaved` event, to keep in memory, and false is returned.
 */
export async function settleAnswer(
	deps: TurnDeps,
	key: [string, number],
	answer: StreamedAnswer,
	onEvent: (event: TurnEvent) => void
): Promise<boolean> {
	if (answer.storageError !== undefined) {
		noteStorageFailure(answer, storageCause(deps.db, answer.storageError));
		answer.error = [storageFailureMessage(answer.storageError, true), answer.error].filter(Boolean).join(' ');
		answer.status = 'error';
	}
	const changes = {
		content: answer.content,
		status: answer.status,
		...(answer.error ? { error: answer.error } : {}),
		...(answer.toolCalls.length ? { tool_calls: answer.toolCalls } : {}),
		...(answer.tokensPerSecond ? { tokens_per_second: Math.round(answer.tokensPerSecond * 10) / 10 } : {}),
		...(answer.usage ? { usage: answer.usage } : {})
	};
	let failure: unknown;
	try {
		// Counted beside the write, not after it: the estimate that follows finds the count made.
		const counting = deps.counter?.countTexts([costText({ content: answer.content, tool_calls: answer.toolCalls })], deps.model).catch(() => {});
		await Promise.all([updateMessage(deps.db, key, changes), counting]);
		return true;
	} catch (error) {
		failure = storageCause(deps.db, error);
	}
	if (answer.storageError !== undefined) noteStorageFailure(answer, failure);
	answer.status = 'error';
	const cause = answer.storageError ?? failure;
	answer.error = storageFailureMessage(cause, false);
	onEvent({ type: 'unsaved', key, text: answer.content, error: answer.error, cause });
	return false;
}
