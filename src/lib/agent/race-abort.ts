// Lets Stop end a wait that cannot itself be cancelled (plugin hooks, plugin loading, locks).
import { abortError } from '../providers/abort';

/** Resolves like `work`, or rejects with an AbortError as soon as `signal` aborts. */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (!signal) return work;
	if (signal.aborted) return Promise.reject(abortError(signal));
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(abortError(signal));
		signal.addEventListener('abort', onAbort, { once: true });
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}
