// Plain words for why a write to the browser's storage failed, for the rows and notices that
// report it. IndexedDB errors arrive as DOMExceptions or as Dexie's wrappers of them.
import { isConnectionLost } from './connection-loss';

/** The error and the errors it wraps (Dexie keeps the browser's as `inner`). */
function chain(error: unknown): Array<{ name: string; message: string }> {
	const found: Array<{ name: string; message: string }> = [];
	for (let e = error as { name?: string; message?: string; inner?: unknown } | undefined, depth = 0; e && depth < 4; e = e.inner as typeof e, depth++) {
		found.push({ name: e.name ?? '', message: e.message ?? String(e) });
	}
	return found;
}

const names = (error: unknown) => chain(error).map((e) => e.name);

/**
 * Whether storage refused for lack of room: the quota error, or (Chromium, with the disk itself
 * full) an I/O error that says there is no space.
 */
export function isQuotaError(error: unknown): boolean {
	return chain(error).some(({ name, message }) => name === 'QuotaExceededError' || /quota|no[_ ]space|ENOSPC|disk (is )?full/i.test(message));
}

/** Why storage refused, as a clause: "storage is full (…)". */
export function describeStorageError(error: unknown): string {
	if (isQuotaError(error)) return 'storage is full (the browser refused to store more data)';
	if (names(error).at(-1) === 'DatabaseClosedError') return 'the database was closed (Palimpsest was updated or its data removed in another tab)';
	if (isConnectionLost(error)) return 'the connection to the browser’s storage was lost';
	return `the browser’s storage failed (${chain(error).at(-1)?.message ?? String(error)})`;
}
