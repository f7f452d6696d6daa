// The loop when the server cannot be reached: retries back off exponentially with jitter, and
// nothing is sent while the device is offline until it comes back online.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CouchClient } from './couch-client';
import { idleStore } from './test-idle-store';
import { backoffDelay, SyncLoop } from './sync-loop';
import { describeStatus, type SyncStatus } from './sync-status';

beforeEach(() => {
	vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
	vi.useRealTimers();
});

/** A fetch to a server that is down: every request fails as a network error, at a recorded time. */
function downFetch(times: number[]): typeof fetch {
	return async () => {
		times.push(Date.now());
		throw new TypeError('fetch failed');
	};
}

describe('the sync loop on failure', () => {
	it('retries a server that is down after doubling waits, up to the ceiling, and says why', async () => {
		const times: number[] = [];
		const statuses: SyncStatus[] = [];
		const loop = new SyncLoop({
			store: idleStore(),
			client: new CouchClient({ url: 'http://sync.invalid/userdb-a', fetch: downFetch(times) }),
			backoff: { baseMs: 1_000, maxMs: 8_000 },
			random: () => 0,
			onStatus: (status) => statuses.push(status)
		});
		const stop = new AbortController();
		const running = loop.run(stop.signal);

		await vi.advanceTimersByTimeAsync(12_000);

		// Waits of 0.5, 1, 2 and 4 s, then 4 s again: half of each ceiling (1, 2, 4, 8, 8 s) with no jitter added.
		expect(times).toEqual([0, 500, 1_500, 3_500, 7_500, 11_500]);
		const last = statuses.at(-1)!;
		expect(last).toEqual({ state: 'error', reason: expect.stringMatching(/^Could not reach the sync server/), retryAt: 15_500 });
		expect(describeStatus(last)).toMatch(/CORS/);
		stop.abort();
		await running;
	});

	it('spreads retries with jitter between half and all of each ceiling', () => {
		const limits = { baseMs: 1_000, maxMs: 300_000 };
		expect([1, 2, 3].map((failures) => backoffDelay(failures, 0, limits))).toEqual([500, 1_000, 2_000]);
		expect([1, 2, 3].map((failures) => backoffDelay(failures, 0.999_999, limits))).toEqual([1_000, 2_000, 4_000]);
		expect(backoffDelay(50, 0.5, limits)).toBe(225_000);
	});

	it('sends nothing while offline, says so, and starts again when back online', async () => {
		const times: number[] = [];
		const statuses: SyncStatus[] = [];
		let online = false;
		const listeners = new Set<() => void>();
		const loop = new SyncLoop({
			store: idleStore(),
			client: new CouchClient({ url: 'http://sync.invalid/userdb-a', fetch: downFetch(times) }),
			online: () => online,
			onOnline: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
			onStatus: (status) => statuses.push(status)
		});
		const stop = new AbortController();
		const running = loop.run(stop.signal);

		await vi.advanceTimersByTimeAsync(10 * 60_000);
		expect(times).toEqual([]);
		expect(statuses.map(describeStatus)).toEqual(['Offline: will retry']);

		online = true;
		for (const listener of listeners) listener();
		await vi.advanceTimersByTimeAsync(0);
		expect(times).toEqual([10 * 60_000]);

		// The network drops again during a request: offline, not an error.
		online = false;
		await vi.advanceTimersByTimeAsync(10 * 60_000);
		expect(statuses.at(-1)).toEqual({ state: 'offline' });
		stop.abort();
		await running;
		expect(listeners.size).toBe(0);
	});
});
