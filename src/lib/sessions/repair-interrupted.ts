// Answers left `streaming` by a tab that closed, crashed or could no longer write are marked
// `incomplete`, their text kept, so the chat offers Retry. Each mark is written while holding the
// session's work lock, taken only if free: a row whose turn lock some tab holds at the moment of
// the write is never marked, however the repair and that tab race.
import type { PalimpsestDb } from '../db/database';
import { listStreamingSessionIds, markSessionInterrupted } from '../db/message-verbs';
import { watch } from '../db/watch';
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

const pause = (ms: number, signal: AbortSignal) =>
	new Promise<void>((resolve) => {
		const timer = setTimeout(resolve, ms);
		signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
	});

/** Checks every `intervalMs` whether some tab holds the session's lock; repairs once none does. */
async function repairWhenFree(target: RepairTarget, sessionId: string, skip: (id: string) => boolean, intervalMs: number, signal: AbortSignal): Promise<void> {
	while (!signal.aborted) {
		try {
			if (!skip(sessionId) && !(await isWorkLockHeld(target.profile, sessionId)) && !signal.aborted) {
				if ((await repairSession(target, sessionId)) !== null) return;
			}
		} catch (error) {
			console.warn('Could not mark an interrupted answer; trying again', error);
		}
		await pause(intervalMs, signal);
	}
}

export interface WatchOptions {
	/** Sessions this tab will store itself (an answer storage refused, kept in memory): left alone. */
	skip?: (sessionId: string) => boolean;
	intervalMs?: number;
}

/**
 * From start-up on, every answer of the profile left `streaming` is watched: once no tab holds its
 * session's work lock (the writing tab closed, crashed, or finished without being able to store
 * it), it is marked incomplete. Rows found at start-up are handled the same way, after the app
 * has started, so a repair that fails (a full disk) never stops it; it is tried again every
 * `intervalMs` until it lands.
 */
export function watchInterruptedAnswers(target: RepairTarget, options: WatchOptions = {}): () => void {
	const { skip = () => false, intervalMs = 500 } = options;
	const loops = new Map<string, AbortController>();
	const stopWatch = watch(
		() => listStreamingSessionIds(target.db),
		(ids) => {
			for (const [id, controller] of loops) {
				if (ids.includes(id)) continue;
				controller.abort();
				loops.delete(id);
			}
			for (const id of ids) {
				if (loops.has(id)) continue;
				const controller = new AbortController();
				loops.set(id, controller);
				void repairWhenFree(target, id, skip, intervalMs, controller.signal).finally(() => {
					if (loops.get(id) === controller) loops.delete(id);
				});
			}
		},
		(error) => console.warn('Could not look for interrupted answers', error)
	);
	return () => {
		stopWatch();
		for (const controller of loops.values()) controller.abort();
		loops.clear();
	};
}
