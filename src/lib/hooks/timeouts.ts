// The hook timeout setting and the bounded waits built on it.

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_TIMEOUT_SECONDS = 600;
/**
 * With the timeout off, how long a collector or directive waits for its plugin's earlier
 * observer events when a hung observer holds the queue: never forever.
 */
export const CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS = 30_000;

/** Waits for `work`, or `ms` at most (0 = no limit). */
export function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
	if (ms <= 0) return work.then(() => {});
	let timer: ReturnType<typeof setTimeout> | undefined;
	const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
	return Promise.race([work.then(() => {}), limit]).finally(() => clearTimeout(timer));
}

/** Seconds from the setting to milliseconds: default 30, 0 (or less) = off, at most 600. */
export function resolveTimeoutMs(seconds: number): number {
	if (typeof seconds !== 'number' || Number.isNaN(seconds)) return DEFAULT_TIMEOUT_SECONDS * 1000;
	if (seconds <= 0) return 0;
	return Math.min(seconds, MAX_TIMEOUT_SECONDS) * 1000;
}

/** How long a plugin's collector or directive waits to catch up on its queued events. */
export function catchUpLimitMs(timeoutMs: number): number {
	return timeoutMs > 0 ? timeoutMs : CATCH_UP_LIMIT_WITHOUT_TIMEOUT_MS;
}
