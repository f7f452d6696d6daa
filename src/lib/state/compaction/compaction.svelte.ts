// Compaction as the UI sees it: progress of the compaction running in each session (with its
// Cancel), the manual "Compact now" and `/compress`, the idle pass after a turn, and where a
// rotated session went. The compaction code itself loads on first use, not with the page.
import { SvelteMap } from 'svelte/reactivity';
import type { CompactionOutcome, CompactionProgress } from '../../agent/compaction-types';
import type { CompactionReason } from '../../hooks/hook-payloads';
import { describeFolded } from './context-usage';
import { localWork, SessionBusyError, stopLocalWork, withWorkLock } from '../../sessions/work-lock';
import type { Services } from '../app/services';
import { loadCode } from '../chat/turn-code';

// Why a compaction ran, in words (the transcript's markers say it too).
export { COMPACTION_REASON_LABELS } from './compaction-words';

/** How long the word on a compaction stays under the header. */
const OUTCOME_SHOWN_MS = 8_000;

export class CompactionsState {
	/** The compaction running in each session, as it reports progress. */
	progress = new SvelteMap<string, CompactionProgress>();
	/** The last word on a compaction the user asked for, per session (shown by the meter for a while). */
	outcome = new SvelteMap<string, string>();
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- timers, not state anything shows
	#outcomeTimers = new Map<string, ReturnType<typeof setTimeout>>();
	#services: Services;
	#onRotated: (from: string, to: string) => void;

	constructor(services: Services, onRotated: (from: string, to: string) => void) {
		this.#services = services;
		this.#onRotated = onRotated;
	}

	/** A progress listener for compactions in `sessionId` (turns pass it along too). */
	listener(sessionId: string): (progress: CompactionProgress) => void {
		return (progress) => {
			if (progress.phase === 'done') this.progress.delete(sessionId);
			else this.progress.set(sessionId, progress);
		};
	}

	cancel(sessionId: string): void {
		this.progress.get(sessionId)?.cancel?.();
	}

	/**
	 * "Compact now", `/compress [focus]` and a model change that no longer fits: one
	 * compaction under the session's work lock. Resolves to what happened, in words.
	 */
	async compact(sessionId: string, reason: CompactionReason, focus = ''): Promise<CompactionOutcome> {
		const outcome = await this.#locked(sessionId, async (signal) => {
			const deps = await this.#services.compactionDeps(sessionId, this.listener(sessionId));
			const { compactSession } = await loadCode(() => import('../../agent/compact-session'));
			return compactSession(deps, { sessionId, reason, focus, signal });
		});
		this.#report(sessionId, outcome);
		return outcome;
	}

	/**
	 * The session's model changed: the provider's compaction items the new model cannot read
	 * give way to a summary, and a conversation too large for its window is compacted now.
	 */
	async afterModelChange(sessionId: string): Promise<void> {
		const outcome = await this.#locked(sessionId, async (signal) => {
			const deps = await this.#services.compactionDeps(sessionId, this.listener(sessionId));
			const { compactForModel } = await loadCode(() => import('../../agent/model-switch'));
			return compactForModel(deps, sessionId, signal);
		});
		if (outcome) this.#report(sessionId, outcome);
	}

	/** Says what happened (the meter shows it), follows a rotation, and recounts. */
	#report(sessionId: string, outcome: CompactionOutcome): void {
		this.#tell(sessionId, describeOutcome(outcome));
		this.#follow(sessionId, outcome);
		void this.#services.refreshTokens(outcome.status === 'compacted' ? outcome.sessionId : sessionId);
	}

	/** Takes the word on the last compaction away (it also leaves by itself after a while). */
	dismiss(sessionId: string): void {
		clearTimeout(this.#outcomeTimers.get(sessionId));
		this.#outcomeTimers.delete(sessionId);
		this.outcome.delete(sessionId);
	}

	#tell(sessionId: string, text: string): void {
		this.dismiss(sessionId);
		this.outcome.set(sessionId, text);
		this.#outcomeTimers.set(sessionId, setTimeout(() => this.dismiss(sessionId), OUTCOME_SHOWN_MS));
	}

	/** The idle pass after a completed turn; a new message cancels it (see `yieldTo`). */
	async idle(sessionId: string): Promise<void> {
		try {
			const outcomes = await this.#locked(sessionId, async (signal) => {
				const deps = await this.#services.compactionDeps(sessionId, this.listener(sessionId));
				const { runIdlePass } = await loadCode(() => import('../../agent/compaction-gates'));
				return runIdlePass(deps, sessionId, signal);
			});
			for (const outcome of outcomes) this.#follow(sessionId, outcome);
		} catch (error) {
			if (!(error instanceof SessionBusyError)) console.warn('[compaction] idle pass failed', error);
		}
	}

	/** The user sends a message: an idle pass still running in this tab gives way at once. */
	async yieldTo(sessionId: string): Promise<void> {
		if (localWork(this.#services.profile.name, sessionId) === 'compaction' && this.progress.get(sessionId)?.reason !== 'manual') {
			await stopLocalWork(this.#services.profile.name, sessionId);
		}
	}

	#locked<T>(sessionId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
		return withWorkLock(this.#services.profile.name, sessionId, { kind: 'compaction' }, work);
	}

	#follow(sessionId: string, outcome: CompactionOutcome): void {
		if (outcome.status === 'compacted' && outcome.rotated) this.#onRotated(sessionId, outcome.sessionId);
	}
}

export function describeOutcome(outcome: CompactionOutcome): string {
	if (outcome.status === 'noop') return outcome.message;
	const { before_tokens, after_tokens, messages_removed } = outcome.payload;
	const saved = after_tokens === null ? '' : ` from ${before_tokens.toLocaleString()} to ${after_tokens.toLocaleString()} tokens`;
	const folded = describeFolded(messages_removed);
	return `Context compacted${saved}${folded ? `, ${folded}` : ''}.`;
}
