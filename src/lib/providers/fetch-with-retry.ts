// Sends a provider request, retrying 429/5xx/network failures with jittered backoff. Only the
// request itself is retried: once a 2xx response is returned, the stream is the caller's, and
// a failure mid-stream is never replayed (the user has already seen part of the answer).

import { abortError, isAbortError, sleep as defaultSleep } from './abort';
import { classifyHttpError } from './classify-error';
import { readErrorBody } from './read-error-body';
import { ProviderError } from './types';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
	/** Retries after the first attempt (default 2). */
	retries?: number;
	/**
	 * First backoff delay; doubles on each retry (default 1000 ms). Each delay is spread by
	 * ±25 % so that tabs and users hit by the same outage do not retry in lockstep.
	 */
	baseDelayMs?: number;
	/** A Retry-After longer than this is not waited for: the error goes to the user (default 30 s). */
	maxRetryAfterMs?: number;
	/** Injectable so tests do not wait. */
	sleep?: Sleep;
	/** A number in [0, 1) for the jitter; injectable so tests can pin it (default Math.random). */
	random?: () => number;
}

/** The wait before retry number `tries` (0-based): exponential, spread by ±25 %. */
export function backoffDelay(baseDelayMs: number, tries: number, random: () => number = Math.random): number {
	return Math.round(baseDelayMs * 2 ** tries * (0.75 + random() * 0.5));
}

/** Options every network adapter accepts besides its config and fetch. */
export interface AdapterOptions {
	retry?: RetryOptions;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

async function attempt(fetchImpl: FetchLike, url: string, init: RequestInit): Promise<Response> {
	const signal = init.signal ?? undefined;
	let response: Response;
	try {
		response = await fetchImpl(url, init);
	} catch (error) {
		if (signal?.aborted || isAbortError(error)) throw abortError(signal);
		const reason = error instanceof Error ? error.message : String(error);
		// Browsers report CORS refusals and unreachable hosts alike as a bare TypeError; a network
		// or server that is down is the likelier, so it is named first.
		throw new ProviderError(`Could not reach ${url} (${reason}): the network or the server may be down, or the server does not allow requests from this page (CORS).`, { kind: 'network' });
	}
	if (response.ok) return response;
	const body = await readErrorBody(response);
	throw classifyHttpError(response.status, body, response.headers);
}

/** Returns the first 2xx response, or throws the last classified ProviderError. */
export async function fetchWithRetry(
	fetchImpl: FetchLike,
	url: string,
	init: RequestInit,
	options: RetryOptions = {}
): Promise<Response> {
	const { retries = 2, baseDelayMs = 1000, maxRetryAfterMs = 30_000 } = options;
	const sleep = options.sleep ?? defaultSleep;
	const random = options.random ?? Math.random;
	const signal = init.signal ?? undefined;
	for (let tries = 0; ; tries++) {
		try {
			return await attempt(fetchImpl, url, init);
		} catch (error) {
			if (!(error instanceof ProviderError) || !error.retryable || tries >= retries) throw error;
			const hinted = error.retryAfter === null ? null : error.retryAfter * 1000;
			if (hinted !== null && hinted > maxRetryAfterMs) throw error;
			// A Retry-After is the server's own schedule and is waited for as given.
			await sleep(hinted ?? backoffDelay(baseDelayMs, tries, random), signal);
		}
	}
}
