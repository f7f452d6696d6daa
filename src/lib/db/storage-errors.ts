// Plain words for why a write to the browser's storage failed, for the rows and notices that
// report it. IndexedDB errors arrive as DOMExceptions or as Dexie's wrappers of them.
import { isConnectionLost } from './connection-loss';

function names(error: unknown): string[] {
	const found: string[] = [];
	for (let e = error as { name?: string; inner?: unknown } | undefined, depth = 0; e && depth < 3; e = e.inner as typeof e, depth++) {
		if (e.name) found.push(e.name);
	}
	return found;
}

export function isQuotaError(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return names(error).includes('QuotaExceededError') || /quota/i.test(message);
}

/** Why storage refused, as a clause: "storage is full (…)". */
export function describeStorageError(error: unknown): string {
	if (isQuotaError(error)) return 'storage is full (the browser refused to store more data)';
	if (names(error).includes('DatabaseClosedError')) return 'the database was closed (Palimpsest was updated or its data removed in another tab)';
	if (isConnectionLost(error)) return 'the connection to the browser’s storage was lost';
	const message = error instanceof Error ? error.message : String(error);
	return `the browser’s storage failed (${message})`;
}
