// Small helpers of the chat store: throttled live text, per-session locks, error wording.

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

/** A user-facing sentence for a failure, with the storage cases spelled out. */
export function describeError(error: unknown): string {
	const name = error instanceof Error ? error.name : '';
	const message = error instanceof Error ? error.message : String(error);
	if (name === 'QuotaExceededError' || /quota/i.test(message)) {
		return 'Your browser refused to store more data (storage is full). Free some space, or export and delete old sessions, then try again.';
	}
	return message;
}

/** Whether any tab of this origin holds the Web Lock `name` right now. */
export async function isLockHeld(name: string): Promise<boolean> {
	if (typeof navigator === 'undefined' || !navigator.locks) return false;
	const { held = [] } = await navigator.locks.query();
	return held.some((lock) => lock.name === name);
}

/**
 * Runs `work` holding the Web Lock `name`, or throws `refusal()` at once if another holder has
 * it: waiting would hold the user's text where nothing shows it and a closed tab loses it.
 */
export async function withFreeLock<T>(name: string, refusal: () => Error, work: () => Promise<T>): Promise<T> {
	if (typeof navigator === 'undefined' || !navigator.locks) return work();
	return navigator.locks.request(name, { ifAvailable: true }, (lock) => {
		if (!lock) throw refusal();
		return work();
	}) as Promise<T>;
}
