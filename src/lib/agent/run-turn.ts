// The turn loop: store the user's message, collect plugin context, stream the answer (and
// any tool rounds), and persist each result with its status.
import { appendMessages, deleteMessages, listMessages, updateMessage } from '../db/message-verbs';
import type { InjectedContext, MessageRow } from '../db/schema';
import { getSession } from '../db/session-verbs';
import { contextRows } from '../db/context-rows';
import { buildRequestMessages, DEFAULT_SYSTEM_PROMPT } from './build-request';
import { streamAnswer } from './stream-answer';
import { isAbortError } from '../providers/abort';
import { joinInjected } from '../hooks/dispatch-results';
import { raceAbort } from './race-abort';
import { runToolCalls } from './run-tool-calls';
import type { TurnDeps, TurnEvent } from './turn-deps';

export interface TurnResult {
	status: MessageRow['status'];
	content: string;
	error?: string;
}

export interface TurnInput {
	sessionId: string;
	signal?: AbortSignal;
	onEvent?: (event: TurnEvent) => void;
}

/** A new user turn: stores `text` as the user's message, then answers it. */
export async function runTurn(deps: TurnDeps, input: TurnInput & { text: string }): Promise<TurnResult> {
	const now = deps.now ?? Date.now;
	const [user] = await appendMessages(deps.db, input.sessionId, [
		{ id: crypto.randomUUID(), role: 'user', content: input.text, status: 'complete', kind: 'message', created_at: now() }
	], now());
	input.onEvent?.({ type: 'user_stored', key: [user.session_id, user.seq] });
	return answerUserMessage(deps, input, user);
}

/** Retry: drops the answer(s) after the last user message and answers it again. */
export async function retryTurn(deps: TurnDeps, input: TurnInput): Promise<TurnResult> {
	const rows = await listMessages(deps.db, input.sessionId);
	const user = rows.findLast((row) => row.role === 'user' && row.kind === 'message' && row.active === 1);
	if (!user) throw new Error('There is no message to retry.');
	// The answer to the last message is dropped and asked again; commands run since stay.
	const answer = rows.filter((row) => row.seq > user.seq && row.kind === 'message');
	await deleteMessages(deps.db, input.sessionId, answer.map((row) => row.seq));
	return answerUserMessage(deps, input, user);
}

async function answerUserMessage(deps: TurnDeps, input: TurnInput, user: MessageRow): Promise<TurnResult> {
	const now = deps.now ?? Date.now;
	const onEvent = input.onEvent ?? (() => {});
	const session = await getSession(deps.db, input.sessionId);
	if (!session) throw new Error(`Session ${input.sessionId} no longer exists.`);
	// Read once for the plugins and the first request; again only after tool results are added.
	let rows = await listMessages(deps.db, input.sessionId);
	const history = contextRows(rows).filter((r) => r.seq < user.seq);
	const collecting = deps.hooks?.collect('pre_llm_call', {
		session_id: session.id,
		session_key: session.session_key,
		user_message: user.content,
		conversation_history: history.map((row) => ({ role: row.role, content: row.content })),
		is_first_turn: !history.some((row) => row.role === 'user'),
		model: deps.model,
		platform: deps.platform,
		profile: deps.profile
	}, input.signal);
	let injectedItems: Awaited<NonNullable<typeof collecting>>;
	try {
		injectedItems = (await raceAbort(collecting ?? Promise.resolve([]), input.signal)) ?? [];
	} catch (error) {
		// Stopped while plugins were still answering: the message stays, with no answer yet.
		if (isAbortError(error)) return { status: 'aborted', content: '' };
		throw error;
	}
	const injected: InjectedContext[] = injectedItems.map((item) => ({
		plugin_id: item.plugin_id,
		plugin_name: deps.pluginName?.(item.plugin_id) ?? item.plugin_id,
		text: item.text
	}));
	// Kept beside the message for the disclosure; the stored content stays what the user wrote.
	await updateMessage(deps.db, [user.session_id, user.seq], { injected });
	const injectedText = joinInjected(injected);

	const maxRounds = deps.maxRounds ?? 8;
	let result: TurnResult = { status: 'error', content: '', error: 'No answer.' };
	let usage = null;
	for (let round = 0; round < maxRounds; round++) {
		if (input.signal?.aborted) return { status: 'aborted', content: result.content };
		const [assistant] = await appendMessages(deps.db, session.id, [
			{ id: crypto.randomUUID(), role: 'assistant', content: '', status: 'streaming', kind: 'message', created_at: now(), model: deps.model, provider: deps.provider.id }
		], now());
		const key: [string, number] = [assistant.session_id, assistant.seq];
		onEvent({ type: 'started', key });
		const request = {
			model: deps.model,
			messages: buildRequestMessages({ systemPrompt: deps.systemPrompt ?? DEFAULT_SYSTEM_PROMPT, rows, userSeq: user.seq, injected: injectedText }),
			tools: deps.tools?.schemas(),
			signal: input.signal
		};
		const answer = await streamAnswer(deps, request, key, onEvent);
		if (answer.gone) return { status: 'aborted', content: answer.content };
		usage = answer.usage ?? usage;
		await updateMessage(deps.db, key, {
			content: answer.content,
			status: answer.status,
			...(answer.error ? { error: answer.error } : {}),
			...(answer.toolCalls.length ? { tool_calls: answer.toolCalls } : {})
		});
		onEvent({ type: 'finished', key, status: answer.status });
		result = { status: answer.status, content: answer.content, error: answer.error };
		if (answer.status !== 'complete' || !answer.toolCalls.length || !deps.tools) break;
		await runToolCalls(deps, session.id, answer.toolCalls, input.signal);
		if (input.signal?.aborted) return { status: 'aborted', content: answer.content };
		rows = await listMessages(deps.db, session.id);
	}
	if (result.status === 'complete') {
		void deps.hooks?.notify('post_llm_call', {
			session_id: session.id,
			user_message: user.content,
			assistant_response: result.content,
			model: deps.model,
			usage
		});
	}
	return result;
}
