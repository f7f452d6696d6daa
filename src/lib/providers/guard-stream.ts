// Normalises how a started stream can fail: aborts stay AbortErrors, ProviderErrors pass
// through, and anything else (a dropped connection, a reset socket) becomes 'incomplete',
// because the user has seen part of an answer that will never be finished.

import { abortError, isAbortError } from './abort';
import { ProviderError, type StreamEvent } from './types';

export async function* guardStream(
	events: AsyncIterable<StreamEvent>,
	signal?: AbortSignal
): AsyncGenerator<StreamEvent> {
	try {
		yield* events;
	} catch (error) {
		if (signal?.aborted || isAbortError(error)) throw abortError(signal);
		if (error instanceof ProviderError) throw error;
		const reason = error instanceof Error ? error.message : String(error);
		throw new ProviderError(`The connection broke during the answer: ${reason}`, {
			kind: 'incomplete'
		});
	}
}

/** Drops trailing slashes so `${base}/path` never doubles them. */
export function trimBaseUrl(url: string): string {
	return url.trim().replace(/\/+$/, '');
}
