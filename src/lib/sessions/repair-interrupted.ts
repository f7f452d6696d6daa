// Answers left `streaming` by a tab that closed, crashed or could no longer write are marked
// `incomplete`, their text kept, so the chat offers Retry. Each mark is written while holding the
// session's work lock, taken only if free: a row whose turn lock some tab holds at the moment of
// the write is never marked, however the repair and that tab race.
import type { PalimpsestDb } from '../db/database';
import { listStreamingSessionIds, markSessionInterrupted } from '../db/message-verbs';
import { isWorkLockHeld, SessionBusyError, withWorkLock } from './work-lock';

/** Stored as the row's error; the chat shows "Incomplete: …". */
export const INTERRUPTED_REASON = 'the tab that was writing it closed before it finished.';

export interface RepairTarget {
	db: PalimpsestDb;
	profile: string;
}

/**
 * Marks the session's streaming answers if no tab holds its work lock. Resolves to how many
 * rows it marked, or null when the lock is held (the answer is alive somewhere).
 */
export async function repairSession(target: RepairTarget, sessionId: string): Promise<number | null> {
	try {
		return await withWorkLock(
			target.profile,
			sessionId,
			{ kind: 'maintenance', refusal: () => new SessionBusyError('The session is busy.') },
			() => markSessionInterrupted(target.db, sessionId, INTERRUPTED_REASON)
		);
	} catch (error) {
		if (error instanceof SessionBusyError) return null;
		throw error;
	}
}

export interface RepairReport {
	repaired: number;
	/** Sessions left alone because some tab holds their lock. */
	busy: number;
	/** Why some session could not be repaired (a full disk, a lost database), if one could not. */
	error: unknown;
}

/** The start-up pass over every session of the profile. Never throws: a failed repair is reported, not fatal. */
export async function repairInterruptedAnswers(target: RepairTarget): Promise<RepairReport> {
	const report: RepairReport = { repaired: 0, busy: 0, error: null };
	let ids: string[];
	try {
		ids = await listStreamingSessionIds(target.db);
	} catch (error) {
		return { ...report, error };
	}
	for (const id of ids) {
		try {
			const marked = await repairSession(target, id);
			if (marked === null) report.busy++;
			else report.repaired += marked;
		} catch (error) {
			report.error ??= error;
		}
	}
	return report;
}

const pause = (ms: number, signal: AbortSignal) =>
	new Promise<void>((resolve) => {
		const timer = setTimeout(resolve, ms);
		signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
	});

/**
 * While a session is shown with an answer that no tab of this one is writing, checks every
 * `intervalMs` whether the writing tab still holds the session's lock; once it let go (closed,
 * crashed, or finished without being able to save), repairs the answer. A repair that fails
 * (a full disk) is tried again on the next check.
 */
export class InterruptedWatch {
	#target: RepairTarget;
	#intervalMs: number;
	#sessionId: string | null = null;
	#controller: AbortController | null = null;

	constructor(target: RepairTarget, intervalMs = 500) {
		this.#target = target;
		this.#intervalMs = intervalMs;
	}

	/** Call whenever the shown session or its rows change; `orphaned`: a streaming row this tab is not writing. */
	follow(sessionId: string | null, orphaned: boolean): void {
		const wanted = orphaned ? sessionId : null;
		if (wanted === this.#sessionId) return;
		this.stop();
		if (!wanted) return;
		this.#sessionId = wanted;
		const controller = (this.#controller = new AbortController());
		void this.#run(wanted, controller.signal);
	}

	stop(): void {
		this.#controller?.abort();
		this.#controller = null;
		this.#sessionId = null;
	}

	async #run(sessionId: string, signal: AbortSignal): Promise<void> {
		while (!signal.aborted) {
			try {
				if (!(await isWorkLockHeld(this.#target.profile, sessionId)) && !signal.aborted) {
					if ((await repairSession(this.#target, sessionId)) !== null) break;
				}
			} catch (error) {
				console.warn('Could not mark an interrupted answer; trying again', error);
			}
			await pause(this.#intervalMs, signal);
		}
		if (this.#sessionId === sessionId && this.#controller?.signal === signal) {
			this.#sessionId = null;
			this.#controller = null;
		}
	}
}
