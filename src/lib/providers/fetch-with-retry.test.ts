import { describe, expect, it, vi } from 'vitest';
import { fetchWithRetry, type FetchLike } from './fetch-with-retry';
import { MAX_ERROR_BODY_BYTES, readErrorBody } from './read-error-body';

const ok = () => new Response('data: [DONE]\n\n', { status: 200 });
const status = (code: number, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify({ error: { message: `status ${code}` } }), { status: code, headers });

function scriptedFetch(...answers: (Response | Error)[]) {
	return vi.fn<FetchLike>(async () => {
		const next = answers.shift();
		if (!next) throw new Error('no more scripted answers');
		if (next instanceof Error) throw next;
		return next;
	});
}

describe('fetchWithRetry', () => {
	it('retries a 429 and returns the later 200, waiting Retry-After', async () => {
		const fetchImpl = scriptedFetch(status(429, { 'retry-after': '2' }), ok());
		const sleep = vi.fn(async () => {});
		const response = await fetchWithRetry(fetchImpl, 'http://x', {}, { sleep });
		expect(response.status).toBe(200);
		expect(fetchImpl).toHaveBeenCalledTimes(2);
		expect(sleep).toHaveBeenCalledWith(2000, undefined);
	});

	it('backs off exponentially on 5xx and network errors, then gives up after the retries', async () => {
		const fetchImpl = scriptedFetch(status(503), new TypeError('Failed to fetch'), status(500));
		const sleep = vi.fn(async (_ms: number) => {});
		// The jitter's midpoint: the plain exponential schedule.
		const run = fetchWithRetry(fetchImpl, 'http://x', {}, { sleep, baseDelayMs: 100, random: () => 0.5 });
		await expect(run).rejects.toMatchObject({ kind: 'server', status: 500 });
		expect(fetchImpl).toHaveBeenCalledTimes(3);
		expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100, 200]);
	});

	it('spreads each backoff by up to 25 % either way, so clients do not retry in lockstep', async () => {
		const delays = async (random: () => number) => {
			const sleep = vi.fn(async (_ms: number) => {});
			const fetchImpl = scriptedFetch(status(503), status(503), ok());
			await fetchWithRetry(fetchImpl, 'http://x', {}, { sleep, baseDelayMs: 1000, random });
			return sleep.mock.calls.map(([ms]) => ms);
		};
		expect(await delays(() => 0)).toEqual([750, 1500]);
		expect(await delays(() => 0.999)).toEqual([1250, 2499]);
		// With the real Math.random two clients almost never wait alike; each stays in its band.
		const [first, second] = await delays(Math.random);
		expect(first).toBeGreaterThanOrEqual(750);
		expect(first).toBeLessThan(1250);
		expect(second).toBeGreaterThanOrEqual(1500);
		expect(second).toBeLessThan(2500);
	});

	it("does not retry Anthropic's spend-limit 429", async () => {
		const spendLimit = new Response(
			JSON.stringify({
				type: 'error',
				error: {
					type: 'rate_limit_error',
					message: 'You have reached your specified API usage limits. You will regain access on 2026-01-01 at 00:00 UTC.'
				}
			}),
			{ status: 429 }
		);
		const fetchImpl = scriptedFetch(spendLimit, ok());
		const sleep = vi.fn(async () => {});
		await expect(fetchWithRetry(fetchImpl, 'http://x', {}, { sleep })).rejects.toMatchObject({
			status: 429,
			retryable: false,
			message: expect.stringContaining('API usage limits')
		});
		expect(fetchImpl).toHaveBeenCalledTimes(1);
		expect(sleep).not.toHaveBeenCalled();
	});

	it('does not retry any error the server marks x-should-retry: false, and retries one marked true', async () => {
		for (const code of [429, 500, 503, 529]) {
			const fetchImpl = scriptedFetch(status(code, { 'x-should-retry': 'false' }), ok());
			await expect(fetchWithRetry(fetchImpl, 'http://x', {}, { sleep: async () => {} })).rejects.toMatchObject({
				status: code,
				retryable: false
			});
			expect(fetchImpl).toHaveBeenCalledTimes(1);
		}
		const conflict = scriptedFetch(status(409, { 'x-should-retry': 'true' }), ok());
		expect((await fetchWithRetry(conflict, 'http://x', {}, { sleep: async () => {} })).status).toBe(200);
		expect(conflict).toHaveBeenCalledTimes(2);
	});

	it('reports an unreachable host as a network error', async () => {
		const fetchImpl = scriptedFetch(new TypeError('Failed to fetch'));
		const run = fetchWithRetry(fetchImpl, 'http://x', {}, { retries: 0 });
		await expect(run).rejects.toMatchObject({ kind: 'network', retryable: true });
		// The same bare error comes for a network or server that is down and for a CORS refusal: the likelier first.
		await expect(run).rejects.toThrow(/^Could not reach http:\/\/x \(Failed to fetch\): the network or the server may be down, or the server does not allow requests from this page \(CORS\)\.$/);
	});

	it('does not retry errors that retrying cannot fix', async () => {
		for (const code of [400, 401, 413]) {
			const fetchImpl = scriptedFetch(status(code), ok());
			await expect(fetchWithRetry(fetchImpl, 'http://x', {}, { sleep: async () => {} })).rejects.toMatchObject({
				status: code
			});
			expect(fetchImpl).toHaveBeenCalledTimes(1);
		}
	});

	it('gives up at once when Retry-After is longer than the cap', async () => {
		const fetchImpl = scriptedFetch(status(429, { 'retry-after': '120' }), ok());
		const sleep = vi.fn(async () => {});
		await expect(fetchWithRetry(fetchImpl, 'http://x', {}, { sleep })).rejects.toMatchObject({
			kind: 'rate_limit',
			retryAfter: 120
		});
		expect(sleep).not.toHaveBeenCalled();
	});

	it('stops waiting and throws AbortError when aborted during backoff', async () => {
		const controller = new AbortController();
		const fetchImpl = scriptedFetch(status(503), ok());
		const run = fetchWithRetry(fetchImpl, 'http://x', { signal: controller.signal }, { baseDelayMs: 60_000 });
		setTimeout(() => controller.abort(), 10);
		await expect(run).rejects.toMatchObject({ name: 'AbortError' });
		expect(fetchImpl).toHaveBeenCalledTimes(1);
	});
});

describe('fetchWithRetry with a huge error body', () => {
	/** A 400 whose body would be 65 MB: an overflow message, then padding without end. */
	function hugeOverflowAnswer() {
		const encoder = new TextEncoder();
		const head = encoder.encode(
			'{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","padding":"'
		);
		const chunk = encoder.encode('x'.repeat(64 * 1024));
		const total = 65 * 1024 * 1024;
		let sent = 0;
		let cancelled = false;
		const source: UnderlyingDefaultSource<Uint8Array> = {
			pull(controller) {
				const next = sent === 0 ? head : chunk;
				if (sent >= total) return controller.close();
				sent += next.length;
				controller.enqueue(next);
			},
			cancel() {
				cancelled = true;
			}
		};
		// No read-ahead: `sent` counts exactly what the reader asked for.
		const body = new ReadableStream<Uint8Array>(source, { highWaterMark: 0 });
		const response = new Response(body, { status: 400, headers: { 'content-type': 'application/json' } });
		return { response, sent: () => sent, cancelled: () => cancelled };
	}

	it('reads only the first part, cancels the rest, and still classifies the overflow', async () => {
		const answer = hugeOverflowAnswer();
		const run = fetchWithRetry(async () => answer.response, 'http://x', {}, { retries: 0 });
		const error = await run.catch((caught: unknown) => caught);
		expect(error).toMatchObject({ kind: 'overflow', status: 400, message: expect.stringContaining('maximum context length') });
		expect(answer.sent()).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 64 * 1024);
		expect(answer.cancelled()).toBe(true);
	});

	it('still reads a small error body whole', async () => {
		const fetchImpl = scriptedFetch(new Response('{"error":{"message":"bad model"}}', { status: 404 }));
		await expect(fetchWithRetry(fetchImpl, 'http://x', {}, { retries: 0 })).rejects.toMatchObject({
			kind: 'bad_request',
			message: 'HTTP 404: bad model'
		});
	});

	it('keeps a character cut at the limit out of the text', async () => {
		const euro = new TextEncoder().encode('€'.repeat(10));
		expect(await readErrorBody(new Response(euro), 7)).toBe('€€');
	});
});
