// Lets Stop end a wait that cannot itself be cancelled (plugin hooks, plugin loading, locks).

export function abortError(): DOMException {
	return new DOMException('The turn was stopped.', 'AbortError');
}

/** Resolves like `work`, or rejects with an AbortError as soon as `signal` aborts. */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (!signal) return work;
	if (signal.aborted) return Promise.reject(abortError());
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(abortError());
		signal.addEventListener('abort', onAbort, { once: true });
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}
