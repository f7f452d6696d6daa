// Small helpers of the chat store: throttled live text and error wording.
import { isQuotaError } from '../../db/storage-errors';

// A stopped answer is not an error to show; the composer asks.
export { isAbortError } from '../../providers/abort';

/** Calls `fn` at most once per `ms` with the latest arguments; `cancel` drops a pending call. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
	let timer: ReturnType<typeof setTimeout> | null = null;
	let latest: A | null = null;
	const call = (...args: A) => {
		latest = args;
		timer ??= setTimeout(() => {
			timer = null;
			if (latest) fn(...latest);
		}, ms);
	};
	call.cancel = () => {
		if (timer) clearTimeout(timer);
		timer = null;
		latest = null;
	};
	return call;
}

/** What a failure to store says; the chat offers Export next to it. */
export const STORAGE_FULL_MESSAGE =
	'Your browser refused to store more data (storage is full). Free some space, or export and delete old sessions, then try again.';

/** A user-facing sentence for a failure, with the storage cases spelled out. */
export function describeError(error: unknown): string {
	// A full disk can also come as an I/O error that says so (Chromium), wrapped by Dexie.
	if (isQuotaError(error)) return STORAGE_FULL_MESSAGE;
	return error instanceof Error ? error.message : String(error);
}
