// Watches that a plugin's context keeps answering, outside any call as well as inside: the
// broker pings it now and then. A ping that waits `stuckAfterMs` means its code holds its
// thread (an endless loop, or memory run out); pings that mostly wait long mean its code keeps
// its processor busy most of the time: over the last `busyWindowMs`, their median wait is past
// `busyMedianMs`. Either way the plugin is stopped, and its row says which.

export interface Watchdog {
	/** About how often the context is pinged (each wait is drawn between half and one and a half of it). */
	pingEveryMs: number;
	/** A ping that has waited this long, over at least three checks, stops the plugin. */
	stuckAfterMs: number;
	/** How far back the busy rule looks; it judges a plugin only once it has watched it this long. */
	busyWindowMs: number;
	/** The median wait of the pings in the window that stops the plugin. */
	busyMedianMs: number;
}

export const WATCHDOG: Watchdog = { pingEveryMs: 500, stuckAfterMs: 6_000, busyWindowMs: 30_000, busyMedianMs: 500 };

/** The fewest pings in the window the busy rule judges by. */
const MIN_SAMPLES = 8;

export type WatchVerdict = { kind: 'stuck'; waitedMs: number } | { kind: 'busy'; medianMs: number; samples: number };

export interface WatchClock {
	now(): number;
	setTimeout(run: () => void, ms: number): unknown;
	clearTimeout(timer: unknown): void;
	random(): number;
}

const REAL_CLOCK: WatchClock = {
	now: () => performance.now(),
	setTimeout: (run, ms) => setTimeout(run, ms),
	clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
	random: () => Math.random()
};

/**
 * Starts watching: `ping` asks the context and settles when it answers (a rejection ends the
 * wait too: the channel is closing). `onVerdict` is called once, when the plugin must stop.
 * Returns how to stop watching.
 */
export function watchResponses(ping: () => Promise<unknown>, watchdog: Watchdog, onVerdict: (verdict: WatchVerdict) => void, clock: WatchClock = REAL_CLOCK): () => void {
	const started = clock.now();
	const samples: Array<{ at: number; ms: number }> = [];
	let waitingSince: number | null = null;
	let checks = 0;
	let timer: unknown = null;
	let stopped = false;

	const stop = () => {
		stopped = true;
		if (timer !== null) clock.clearTimeout(timer);
		timer = null;
	};
	const judge = (verdict: WatchVerdict) => {
		stop();
		onVerdict(verdict);
	};

	function busyVerdict(now: number): WatchVerdict | null {
		if (now - started < watchdog.busyWindowMs) return null;
		while (samples.length && samples[0].at < now - watchdog.busyWindowMs) samples.shift();
		// A ping still waiting counts with what it has waited so far.
		const waits = samples.map((sample) => sample.ms);
		if (waitingSince !== null) waits.push(now - waitingSince);
		if (waits.length < MIN_SAMPLES) return null;
		waits.sort((a, b) => a - b);
		const median = waits[Math.floor(waits.length / 2)];
		return median > watchdog.busyMedianMs ? { kind: 'busy', medianMs: Math.round(median), samples: waits.length } : null;
	}

	function tick(): void {
		timer = null;
		if (stopped) return;
		const now = clock.now();
		if (waitingSince === null) {
			const sent = now;
			waitingSince = sent;
			checks = 0;
			const settle = () => {
				if (waitingSince !== sent) return;
				waitingSince = null;
				samples.push({ at: sent, ms: clock.now() - sent });
			};
			ping().then(settle, settle);
		} else {
			checks++;
			// Counting checks as well as time keeps a broker that was itself held up from blaming the plugin.
			if (checks >= 3 && now - waitingSince >= watchdog.stuckAfterMs) return judge({ kind: 'stuck', waitedMs: Math.round(now - waitingSince) });
		}
		const busy = busyVerdict(now);
		if (busy) return judge(busy);
		timer = clock.setTimeout(tick, watchdog.pingEveryMs * (0.5 + clock.random()));
	}

	timer = clock.setTimeout(tick, watchdog.pingEveryMs * (0.5 + clock.random()));
	return stop;
}
