// How late the page's own timers run while something else works: a timer every 10 ms records
// how much later than asked it fired. A page whose main thread is held shows as late timers.
import type { Page } from './test-base';

interface LagState {
	samples: number[];
	last: number;
	paused: boolean;
}

type Scope = { __lag: LagState };

export interface Lateness {
	/** The 99th percentile and the worst lateness since the watch began, in ms, and how many timers fired. */
	read(): Promise<{ p99: number; worst: number; count: number }>;
	/** Runs a step of the test's own (drawing another page, say) without counting its lateness. */
	aside(step: () => Promise<void>): Promise<void>;
}

export async function watchLateness(page: Page): Promise<Lateness> {
	await page.evaluate(() => {
		const state: LagState = { samples: [], last: performance.now(), paused: false };
		(globalThis as unknown as Scope).__lag = state;
		setInterval(() => {
			const now = performance.now();
			if (!state.paused) state.samples.push(Math.max(0, now - state.last - 10));
			state.last = now;
		}, 10);
	});
	const setPaused = (paused: boolean) =>
		page.evaluate((on) => {
			const state = (globalThis as unknown as Scope).__lag;
			state.paused = on;
			state.last = performance.now();
		}, paused);
	return {
		read: () =>
			page.evaluate(() => {
				const sorted = [...(globalThis as unknown as Scope).__lag.samples].sort((a, b) => a - b);
				const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
				return { p99: Math.round(at(0.99)), worst: Math.round(sorted.at(-1) ?? 0), count: sorted.length };
			}),
		async aside(step) {
			await setPaused(true);
			try {
				await step();
			} finally {
				await setPaused(false);
			}
		}
	};
}
