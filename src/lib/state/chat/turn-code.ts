// The code a turn needs (the agent loop, the provider adapters, compaction) loads on first use,
// or in idle time after start-up, not with the page: the Message box is ready sooner, and the
// first message rarely waits for it.
import type * as RunTurn from '../../agent/run-turn';

export type TurnCode = typeof RunTurn;

/** What a turn, a compaction or a connection test says when its code could not be loaded. */
export const CODE_UNAVAILABLE =
	'Part of the app could not be loaded (the connection may have dropped, or a new version was installed). Reload the page and try again.';

/** Runs `load` (a dynamic import); a failure is thrown as one clear sentence, the cause kept. */
export async function loadCode<T>(load: () => Promise<T>): Promise<T> {
	try {
		return await load();
	} catch (error) {
		throw new Error(CODE_UNAVAILABLE, { cause: error });
	}
}

let turnCode: Promise<TurnCode> | null = null;

/** The agent loop; a failed load is tried again on the next use. */
export function loadTurnCode(): Promise<TurnCode> {
	turnCode ??= loadCode(() => import('../../agent/run-turn')).catch((error) => {
		turnCode = null;
		throw error;
	});
	return turnCode;
}

/** Loads the agent loop and the adapters when the page is idle, so the first message needs no wait. */
export function preloadTurnCode(): void {
	const load = () => void Promise.all([loadTurnCode(), import('../../providers/create-provider'), import('../../providers/offline')]).catch(() => {});
	if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 3000 });
	else setTimeout(load, 0);
}
