// The turn loop: store the user's message, compact first when the request would not fit,
// collect plugin context, stream the answer (and any tool rounds), and persist each result
// with its status. Compaction inside a turn (post_tool, overflow) is followed by a fresh
// pre_llm_call before the next request, so re-injected context reaches it.
import { appendMessages, deleteMessages, updateMessage } from '../db/message-verbs';
import { listActiveMessages } from '../db/compaction-verbs';
import type { Attachment, BlobRow, InjectedContext, MessageRow, SentRequest } from '../db/schema';
import { keepEarlierInjected, recordRequest } from './record-request';
import { getSession } from '../db/session-verbs';
import { contextRows } from '../db/context-rows';
import { buildRequestMessages, DEFAULT_SYSTEM_PROMPT, userMessageNumber } from './build-request';
import { readRequestImages } from './request-images';
import { settleAnswer, streamAnswer } from './stream-answer';
import { isAbortError } from '../providers/abort';
import { joinInjected } from '../hooks/dispatch-results';
import { raceAbort } from './race-abort';
import { runToolCalls } from './run-tool-calls';
import type { CompactionOutcome } from './compaction-types';
import type { TurnDeps, TurnEvent } from './turn-deps';
import type { HistoryMessage } from '../hooks/hook-payloads';

export interface TurnResult {
	status: MessageRow['status'];
	content: string;
	error?: string;
	/** The session the turn ended in: a compaction that rotated moves it to a child session. */
	sessionId?: string;
}

export interface TurnInput {
	sessionId: string;
	signal?: AbortSignal;
	onEvent?: (event: TurnEvent) => void;
}

const isUserMessage = (row: MessageRow) => row.role === 'user' && row.kind === 'message';

/** A row as a plugin sees it in a history: attachments by type, name and size, never their bytes. */
function historyMessage(row: MessageRow): HistoryMessage {
	const message: HistoryMessage = { role: row.role, content: row.content };
	if (row.attachments?.length) message.attachments = row.attachments.map(({ type, name, size }) => ({ type, name, size }));
	return message;
}

/** What the user attached to a message: the references the row keeps, and their bytes. */
export interface NewAttachments {
	refs: Attachment[];
	blobs: Omit<BlobRow, 'session_id'>[];
}

/** A new user turn: stores `text` (and its attachments, bytes and row together) as the user's message, then answers it. */
export async function runTurn(deps: TurnDeps, input: TurnInput & { text: string; attachments?: NewAttachments }): Promise<TurnResult> {
	const now = deps.now ?? Date.now;
	const refs = input.attachments?.refs ?? [];
	const [user] = await appendMessages(deps.db, input.sessionId, [
		{ id: crypto.randomUUID(), role: 'user', content: input.text, status: 'complete', kind: 'message', created_at: now(), ...(refs.length ? { attachments: refs } : {}) }
	], now(), {}, input.attachments?.blobs ?? []);
	input.onEvent?.({ type: 'user_stored', key: [user.session_id, user.seq] });
	return new Turn(deps, input, user).answer();
}

/** Retry: drops the answer(s) after the last user message and answers it again. */
export async function retryTurn(deps: TurnDeps, input: TurnInput): Promise<TurnResult> {
	const rows = await listActiveMessages(deps.db, input.sessionId);
	const user = rows.findLast(isUserMessage);
	if (!user) throw new Error('There is no message to retry.');
	// The answer to the last message is dropped and asked again; commands run since stay.
	const answer = rows.filter((row) => row.seq > user.seq && row.kind === 'message');
	await deleteMessages(deps.db, input.sessionId, answer.map((row) => row.seq));
	return new Turn(deps, input, user).answer();
}

class Turn {
	#sessionId: string;
	#rows: MessageRow[] = [];
	#user: MessageRow;
	#injected: InjectedContext[] = [];
	/** Answers of this turn whose recipe reads its plugin context from the user message. */
	#sent: { key: [string, number]; sent: SentRequest }[] = [];
	readonly #deps: TurnDeps;
	readonly #input: TurnInput;
	readonly #onEvent: (event: TurnEvent) => void;

	constructor(deps: TurnDeps, input: TurnInput, user: MessageRow) {
		this.#deps = deps;
		this.#input = input;
		this.#user = user;
		this.#sessionId = input.sessionId;
		this.#onEvent = input.onEvent ?? (() => {});
	}

	async answer(): Promise<TurnResult> {
		const { deps, signal } = { deps: this.#deps, signal: this.#input.signal };
		const gate = deps.compaction;
		const stopped = (content = ''): TurnResult => ({ status: 'aborted', content, sessionId: this.#sessionId });
		try {
			// Plugins' tools too large for any request: nothing of the turn runs, nothing is sent.
			const oversized = await gate?.oversizedTools?.(this.#sessionId, [], 'least');
			if (oversized) return { ...(await this.#storeFailure(oversized)), sessionId: this.#sessionId };
			// pre_api and gateway_hygiene run before pre_llm_call: re-injected context reaches this request.
			if (gate) this.#follow(await gate.beforeTurn(this.#sessionId, signal));
			if (signal?.aborted) return stopped();
			await this.#collect();
		} catch (error) {
			// Stopped while compacting or while plugins were answering: the message stays, unanswered.
			if (isAbortError(error)) return stopped();
			throw error;
		}
		const maxRounds = deps.maxRounds ?? 8;
		let result: TurnResult = { status: 'error', content: '', error: 'No answer.' };
		let usage = null;
		let afterTools = false;
		let overflowRetried = false;
		for (let round = 0; round < maxRounds; round++) {
			if (signal?.aborted) return stopped(result.content);
			if (gate) {
				const outcome = await gate.beforeRequest(this.#sessionId, this.#injected.map((i) => i.text), afterTools, signal);
				if (this.#follow(outcome)) await this.#collect();
			}
			if (signal?.aborted) return stopped(result.content);
			const oversized = await gate?.oversizedTools?.(this.#sessionId, this.#injected.map((i) => i.text), 'whole');
			if (oversized) return { ...(await this.#storeFailure(oversized)), sessionId: this.#sessionId };
			afterTools = false;
			this.#rows = await listActiveMessages(deps.db, this.#sessionId);
			const images = await readRequestImages(deps.db, this.#sessionId, this.#rows);
			const systemPrompt = deps.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
			const request = {
				...deps.params,
				model: deps.model,
				messages: buildRequestMessages({ systemPrompt, rows: this.#rows, userSeq: this.#user.seq, injected: joinInjected(this.#injected), provider: deps.provider.id, images }),
				tools: deps.tools?.schemas(),
				signal,
				context_management: gate?.contextManagement(),
				turn: userMessageNumber(this.#rows, this.#user.seq)
			};
			const recorded = await recordRequest(deps, request, { systemPrompt, rows: this.#rows, userSeq: this.#user.seq });
			const sent = recorded?.sent;
			const [assistant] = await appendMessages(deps.db, this.#sessionId, [
				{ id: crypto.randomUUID(), role: 'assistant', content: '', status: 'streaming', kind: 'message', created_at: this.#now(), model: deps.model, provider: deps.provider.id, ...(sent ? { sent } : {}) }
			], this.#now(), recorded?.frames);
			const key: [string, number] = [assistant.session_id, assistant.seq];
			if (sent) this.#sent.push({ key, sent });
			this.#onEvent({ type: 'started', key });
			const answer = await streamAnswer(deps, request, key, this.#onEvent);
			if (answer.gone) return stopped(answer.content);
			usage = answer.usage ?? usage;
			// Compaction off for this chat: the provider's refusal stands, with what makes room.
			if (answer.overflow && gate?.automatic === false) answer.error = `${answer.error} Compaction is off for this chat: Compact now makes room, or turn it on in Chat settings.`;
			else if (answer.overflow && gate && !signal?.aborted) {
				if (!overflowRetried) {
					// Compact, then ask again once: the failed answer makes way for the retried one.
					overflowRetried = true;
					await deleteMessages(deps.db, this.#sessionId, [key[1]]);
					this.#onEvent({ type: 'finished', key, status: 'aborted' });
					const outcome = await gate.onOverflow(this.#sessionId, signal, { limit: answer.limit ?? null, injected: this.#injected.map((i) => i.text) });
					if (this.#follow(outcome)) {
						await this.#collect();
						continue;
					}
					const stored = await this.#storeFailure(`${answer.error} Compacting the conversation did not help: ${outcome.status === 'noop' ? outcome.message : ''}`);
					return { ...stored, sessionId: this.#sessionId };
				}
				answer.error = `${answer.error} It was compacted once already: start a new session, or choose a model with a larger context window.`;
			}
			// Storage that failed mid-stream fails the answer; one it cannot store at all ends the turn.
			if (!(await settleAnswer(deps, key, answer, this.#onEvent))) {
				return { status: 'error', content: answer.content, error: answer.error, sessionId: this.#sessionId };
			}
			this.#onEvent({ type: 'finished', key, status: answer.status });
			result = { status: answer.status, content: answer.content, error: answer.error };
			// Paused after compacting: the empty answer makes way for the one the next request brings.
			if (answer.resume && !answer.content && !answer.toolCalls.length) await deleteMessages(deps.db, this.#sessionId, [key[1]]);
			if (gate && (answer.cleared > 0 || answer.native)) await gate.onProviderCompacted(this.#sessionId, { cleared: answer.cleared, native: answer.native });
			if (answer.resume) continue;
			if (answer.status !== 'complete' || !answer.toolCalls.length || !deps.tools) break;
			await runToolCalls(deps, this.#sessionId, answer.toolCalls, signal);
			if (signal?.aborted) return stopped(answer.content);
			afterTools = true;
		}
		if (result.status === 'complete') {
			await gate?.afterAnswer(this.#sessionId, usage).catch(() => {});
			void deps.hooks?.notify('post_llm_call', {
				session_id: this.#sessionId,
				user_message: this.#user.content,
				assistant_response: result.content,
				model: deps.model,
				usage
			});
		}
		return { ...result, sessionId: this.#sessionId };
	}

	#now(): number {
		return (this.#deps.now ?? Date.now)();
	}

	/** Follows a compaction that happened (into a child session, if it rotated); true if one did. */
	#follow(outcome: CompactionOutcome | null): boolean {
		if (outcome?.status !== 'compacted') return false;
		if (outcome.rotated) {
			this.#onEvent({ type: 'rotated', from: this.#sessionId, to: outcome.sessionId });
			this.#sessionId = outcome.sessionId;
		}
		return true;
	}

	/** pre_llm_call: plugin context for the next request, kept beside the user message for the disclosure. */
	async #collect(): Promise<void> {
		const { deps } = { deps: this.#deps };
		const session = await getSession(deps.db, this.#sessionId);
		if (!session) throw new Error(`Session ${this.#sessionId} no longer exists.`);
		this.#rows = await listActiveMessages(deps.db, this.#sessionId);
		// After a rotation or a native compaction the user's message may live in a new row.
		this.#user = this.#rows.findLast(isUserMessage) ?? this.#user;
		const history = contextRows(this.#rows).filter((row) => row.seq < this.#user.seq);
		// A compacted conversation is never a first turn, whatever its history now looks like.
		const compacted = session.parent_kind === 'compression' || this.#rows.some((row) => row.kind === 'summary' || row.compaction);
		const collecting = deps.hooks?.collect('pre_llm_call', {
			session_id: session.id,
			session_key: session.session_key,
			user_message: this.#user.content,
			conversation_history: history.map(historyMessage),
			is_first_turn: !compacted && !history.some((row) => row.role === 'user'),
			model: deps.model,
			platform: deps.platform,
			profile: deps.profile
		}, this.#input.signal);
		const items = (await raceAbort(collecting ?? Promise.resolve([]), this.#input.signal)) ?? [];
		const earlier = this.#injected;
		this.#injected = items.map((item) => ({
			plugin_id: item.plugin_id,
			plugin_name: deps.pluginName?.(item.plugin_id) ?? item.plugin_id,
			text: item.text,
			...(item.cut_from === undefined ? {} : { cut_from: item.cut_from })
		}));
		// Earlier answers of this turn keep the context they were sent with.
		await keepEarlierInjected(deps.db, this.#sent.filter(({ key }) => key[0] === this.#user.session_id), earlier, this.#injected);
		this.#sent = [];
		// Kept beside the message for the disclosure; the stored content stays what the user wrote.
		await updateMessage(deps.db, [this.#user.session_id, this.#user.seq], { injected: this.#injected });
	}

	async #storeFailure(error: string): Promise<TurnResult> {
		const [row] = await appendMessages(this.#deps.db, this.#sessionId, [
			{ id: crypto.randomUUID(), role: 'assistant', content: '', status: 'error', error, kind: 'message', created_at: this.#now(), model: this.#deps.model, provider: this.#deps.provider.id }
		], this.#now());
		this.#onEvent({ type: 'finished', key: [row.session_id, row.seq], status: 'error' });
		return { status: 'error', content: '', error };
	}
}
