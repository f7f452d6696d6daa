// The broker's watch on a plugin's context: a context that stops answering is stopped after
// `stuckAfterMs`; one busy most of the time (its median wait over the window past the limit)
// is stopped too; one that answers at once, or is busy only now and then, is left alone.
import { describe, expect, it } from 'vitest';
import { watchResponses, type WatchClock, type WatchVerdict, type Watchdog } from './response-watch';

const WATCH: Watchdog = { pingEveryMs: 500, stuckAfterMs: 6_000, busyWindowMs: 30_000, busyMedianMs: 500 };

/** A clock whose time moves only when the test says; timers and answers run in time order. */
function fakeClock() {
	let now = 0;
	let timers: Array<{ at: number; run: () => void; id: number }> = [];
	let id = 0;
	const clock: WatchClock = {
		now: () => now,
		setTimeout: (run, ms) => {
			timers.push({ at: now + ms, run, id: ++id });
			return id;
		},
		clearTimeout: (timer) => (timers = timers.filter((t) => t.id !== timer)),
		random: () => 0.5
	};
	async function advance(to: number): Promise<void> {
		for (;;) {
			timers.sort((a, b) => a.at - b.at);
			const next = timers[0];
			if (!next || next.at > to) break;
			timers.shift();
			now = next.at;
			next.run();
			// Lets a ping's answer settle before the next timer.
			for (let i = 0; i < 5; i++) await Promise.resolve();
		}
		now = to;
	}
	return { clock, advance, later: (ms: number, run: () => void) => clock.setTimeout(run, ms) };
}

/** A context that answers each ping after `delay(now)` ms (Infinity: never). */
function context(fake: ReturnType<typeof fakeClock>, delay: (now: number) => number) {
	return () =>
		new Promise<void>((resolve) => {
			const wait = delay(fake.clock.now());
			if (Number.isFinite(wait)) fake.later(wait, resolve);
		});
}

async function watchFor(ms: number, delay: (now: number) => number): Promise<WatchVerdict[]> {
	const fake = fakeClock();
	const verdicts: WatchVerdict[] = [];
	const stop = watchResponses(context(fake, delay), WATCH, (verdict) => verdicts.push(verdict), fake.clock);
	await fake.advance(ms);
	stop();
	return verdicts;
}

describe('the watch on a plugin context', () => {
	it('leaves a context that answers at once alone, however long it runs', async () => {
		expect(await watchFor(120_000, () => 1)).toEqual([]);
	});

	it('stops a context that stops answering, after the stuck limit', async () => {
		const verdicts = await watchFor(20_000, (now) => (now < 5_000 ? 1 : Infinity));
		expect(verdicts).toEqual([{ kind: 'stuck', waitedMs: expect.any(Number) }]);
		expect((verdicts[0] as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(6_000);
	});

	it('stops a context busy 1.8 s of every 2 s once it has been watched for the window, and not before', async () => {
		// Busy from 0 to 1.8 s of each 2 s: a ping waits until the busy part ends.
		const busy = (now: number) => (now % 2_000 < 1_800 ? 1_800 - (now % 2_000) : 1);
		expect(await watchFor(29_000, busy)).toEqual([]);
		const verdicts = await watchFor(40_000, busy);
		expect(verdicts).toEqual([{ kind: 'busy', medianMs: expect.any(Number), samples: expect.any(Number) }]);
		expect((verdicts[0] as { medianMs: number }).medianMs).toBeGreaterThan(500);
	});

	it('leaves a context busy for a few seconds now and then alone', async () => {
		// Two seconds of work every ten: most pings are answered at once.
		const sometimes = (now: number) => (now % 10_000 < 2_000 ? 2_000 - (now % 10_000) : 1);
		expect(await watchFor(120_000, sometimes)).toEqual([]);
	});
});
