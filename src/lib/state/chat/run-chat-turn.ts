// One turn of the chat, as the page runs it: the work lock that tells other tabs the answer is
// alive, and its events shown as they come (live text, the provider's status, an answer storage
// refused, the thread moving into a child session); a failure is said in the chat.
import type { SvelteMap } from 'svelte/reactivity';
import { raceAbort } from '../../agent/race-abort';
import type { TurnDeps, TurnEvent } from '../../agent/turn-deps';
import { withWorkLock } from '../../sessions/work-lock';
import type { Services } from '../app/services';
import type { CompactionsState } from '../compaction/compaction.svelte';
import { describeError, STORAGE_FULL_MESSAGE, throttle } from '../shared/turn-helpers';
import { ANSWERING_ELSEWHERE } from './answering';
import { loadTurnCode, type TurnCode } from './turn-code';
import type { UnsavedAnswers } from './unsaved-answers.svelte';

const LIVE_RENDER_MS = 50;

/** A turn's work, given its dependencies and the agent loop (loaded on first use). */
export type Turn = (deps: TurnDeps, input: Parameters<TurnCode['retryTurn']>[1], turns: TurnCode) => ReturnType<TurnCode['retryTurn']>;

/** What a turn shows in the chat that runs it (see ChatState). */
export interface TurnView {
	/** The session on show, or null for the new chat. */
	readonly sessionId: string | null;
	error: string | null;
	readonly running: SvelteMap<string, AbortController>;
	readonly live: SvelteMap<string, string>;
	readonly liveStatus: SvelteMap<string, string>;
	readonly unsaved: UnsavedAnswers;
	followRotation(from: string, to: string): Promise<void>;
}

/** An answer's key among those this tab streams (`live`, `liveStatus`), from its row's [session_id, seq]. */
export function liveKey(key: [string, number]): string {
	return `${key[0]}:${key[1]}`;
}

/**
 * Runs a turn in session `sessionId` (`resumed`: opened here and had no turn yet, for the hygiene
 * check); once it completed, returns the session it finished in (null otherwise). Failures show in the
 * chat; a failure before the user's message was stored is thrown instead, so the Message box
 * can give the text back.
 */
export async function runChatTurn(
	view: TurnView,
	services: Services,
	compactions: CompactionsState,
	sessionId: string,
	turn: Turn,
	resumed: boolean,
	hasUserText: boolean
): Promise<string | null> {
	let stored = !hasUserText;
	let finishedIn = sessionId;
	let completed = false;
	const controller = new AbortController();
	view.running.set(sessionId, controller);
	view.error = null;
	// Each update re-renders the answer's Markdown: at most one render per frame budget.
	const showText = throttle((key: string, text: string) => view.live.set(key, text), LIVE_RENDER_MS);
	const onEvent = (event: TurnEvent) => {
		if (event.type === 'user_stored') stored = true;
		// Marks the row as this tab's: it shows "…" until text arrives, not "another tab".
		if (event.type === 'started') view.live.set(liveKey(event.key), '');
		if (event.type === 'text') showText(liveKey(event.key), event.text);
		if (event.type === 'status') view.liveStatus.set(liveKey(event.key), event.text);
		// The stored row takes over once its status leaves 'streaming' (see MessageView).
		if (event.type === 'finished') showText.cancel();
		// Storage refused the answer: keep it here, shown and copyable, until it can be stored.
		if (event.type === 'unsaved') {
			showText.cancel();
			view.unsaved.keep(event);
			// A full disk also gets the chat's notice, with its Export button.
			if (view.sessionId === event.key[0] && describeError(event.cause) === STORAGE_FULL_MESSAGE) view.error = STORAGE_FULL_MESSAGE;
		}
		// The thread continues in a child session: it is busy too, and the view follows it.
		if (event.type === 'rotated') {
			finishedIn = event.to;
			view.running.set(event.to, controller);
			void view.followRotation(event.from, event.to);
		}
	};
	try {
		// The agent loop loads on first use (see turn-code.ts), not with the page.
		const [deps, turns] = await raceAbort(
			Promise.all([services.turnDeps(sessionId, { resumed, onProgress: compactions.listener(sessionId) }), loadTurnCode()]),
			controller.signal
		);
		// The lock tells other tabs (and a reload's repair pass) that this answer is alive.
		await withWorkLock(services.profile.name, sessionId, { kind: 'turn', controller, refusal: () => new Error(ANSWERING_ELSEWHERE) }, async (signal) => {
			const result = await turn(deps, { sessionId, signal, onEvent }, turns);
			completed = result.status === 'complete';
			return result;
		});
	} catch (error) {
		// Not stored: throw, so the Message box gives the text back (a Stop is no failure).
		if (!stored) throw controller.signal.aborted ? error : new Error(describeError(error), { cause: error });
		if (!controller.signal.aborted && view.sessionId === sessionId) view.error = describeError(error);
	} finally {
		showText.cancel();
		for (const id of sessionId === finishedIn ? [sessionId] : [sessionId, finishedIn]) {
			view.running.delete(id);
			for (const key of [...view.live.keys()]) if (key.startsWith(`${id}:`)) view.live.delete(key);
			for (const key of [...view.liveStatus.keys()]) if (key.startsWith(`${id}:`)) view.liveStatus.delete(key);
		}
		// A token count that cannot be read or stored (storage full or lost) is no failure of the turn.
		await services.refreshTokens(finishedIn).catch(() => {});
	}
	return completed ? finishedIn : null;
}
