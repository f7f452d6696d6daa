// The order in which the plugin broker reads what plugins sent. A message from a plugin costs
// nothing until it is read (the browser copies it out only when its data is first touched), so
// each arrives in its plugin's own inbox, unread; the scheduler then reads them in turns, one
// message of each plugin with something waiting per round, in short slices between which the
// broker's other work and newly arrived messages get their turn. A plugin that sends a lot
// therefore waits behind its own messages, never another plugin's: its backlog, its answers
// and the checks of whether it still answers are charged to it alone. Each plugin's reading is
// also bounded in bytes a second (past a burst its messages wait their turn), and in how many
// may wait at once (more are dropped unread, and counted).
import { MAX_WAITING_MESSAGES, MESSAGE_BYTES_BURST, MESSAGE_BYTES_PER_SECOND, RateBudget } from '../plugin-budgets';

/** Reads one message: what it returns is the bytes it held, charged to its plugin. */
export type Reading = () => number;

export interface InboxLimits {
	bytesPerSecond: number;
	bytesBurst: number;
	maxWaiting: number;
	/** How long one slice of reading runs before the broker's other work gets its turn. */
	sliceMs: number;
}

export const INBOX_LIMITS: InboxLimits = {
	bytesPerSecond: MESSAGE_BYTES_PER_SECOND,
	bytesBurst: MESSAGE_BYTES_BURST,
	maxWaiting: MAX_WAITING_MESSAGES,
	sliceMs: 4
};

export interface SchedulerClock {
	now(): number;
	/** Runs `run` as a task of its own, after the tasks already waiting (messages that arrived). */
	soon(run: () => void): void;
	/** Runs `run` after `ms`. */
	later(run: () => void, ms: number): void;
}

/** What a plugin's inbox tells its plugin, for its row. */
export interface InboxEvents {
	/** A message was dropped unread: MAX_WAITING_MESSAGES were waiting already. */
	dropped(): void;
	/** `count` more messages had to wait for the plugin's bytes budget. */
	held(count: number): void;
}

export class PluginInbox {
	readonly #waiting: Reading[] = [];
	/** Of the waiting messages (the first ones), how many are already counted as held. */
	#counted = 0;
	#closed = false;
	readonly budget: RateBudget;
	readonly #events: InboxEvents;
	readonly #wake: (inbox: PluginInbox) => void;
	readonly #max: number;

	constructor(limits: InboxLimits, now: () => number, events: InboxEvents, wake: (inbox: PluginInbox) => void) {
		this.budget = new RateBudget(limits.bytesPerSecond, limits.bytesBurst, now);
		this.#max = limits.maxWaiting;
		this.#events = events;
		this.#wake = wake;
	}

	/** Keeps `read` for its turn; false (dropped unread, and counted) when the inbox is full or closed. */
	push(read: Reading): boolean {
		if (this.#closed) return false;
		if (this.#waiting.length >= this.#max) {
			this.#events.dropped();
			return false;
		}
		this.#waiting.push(read);
		this.#wake(this);
		return true;
	}

	get waiting(): number {
		return this.#waiting.length;
	}

	get closed(): boolean {
		return this.#closed;
	}

	/** Drops every waiting message unread; nothing more is taken. */
	close(): void {
		this.#closed = true;
		this.#waiting.length = 0;
		this.#counted = 0;
	}

	/** Reads the next waiting message and charges its bytes. */
	readNext(): void {
		const read = this.#waiting.shift();
		if (!read) return;
		if (this.#counted > 0) this.#counted--;
		let bytes = 0;
		try {
			bytes = read();
		} finally {
			this.budget.charge(Math.max(1, bytes));
		}
	}

	/** Its turn came while over its bytes budget: every message waiting now waited for it. */
	hold(): void {
		const fresh = this.#waiting.length - this.#counted;
		if (fresh <= 0) return;
		this.#counted = this.#waiting.length;
		this.#events.held(fresh);
	}
}

function realClock(): SchedulerClock {
	// A port posted to itself runs after the tasks already queued (the messages that arrived
	// meanwhile), and is not slowed down the way chained timers are.
	let channel: MessageChannel | null = null;
	const queued: Array<() => void> = [];
	return {
		now: () => performance.now(),
		soon(run) {
			if (!channel) {
				channel = new MessageChannel();
				channel.port1.onmessage = () => queued.shift()?.();
				// In Node (the broker's tests) a listening port would keep the process alive.
				(channel.port1 as unknown as { unref?: () => void }).unref?.();
			}
			queued.push(run);
			channel.port2.postMessage(null);
		},
		later: (run, ms) => void setTimeout(run, ms)
	};
}

export class InboxScheduler {
	/** The inboxes with something waiting, in the order their turns come. */
	#ring: PluginInbox[] = [];
	#turn = 0;
	#scheduled = false;
	#sleepingUntil = Infinity;
	readonly #limits: InboxLimits;
	readonly #clock: SchedulerClock;

	constructor(limits: InboxLimits = INBOX_LIMITS, clock: SchedulerClock = realClock()) {
		this.#limits = limits;
		this.#clock = clock;
	}

	get limits(): InboxLimits {
		return this.#limits;
	}

	/** A new plugin's inbox. */
	open(events: InboxEvents): PluginInbox {
		return new PluginInbox(this.#limits, () => this.#clock.now(), events, (inbox) => this.#wake(inbox));
	}

	#wake(inbox: PluginInbox): void {
		if (!this.#ring.includes(inbox)) this.#ring.push(inbox);
		this.#schedule();
	}

	#schedule(): void {
		if (this.#scheduled) return;
		this.#scheduled = true;
		this.#clock.soon(() => this.#slice());
	}

	/** Reads in rounds until nothing waits, every waiting plugin is over its budget, or the slice is used up. */
	#slice(): void {
		this.#scheduled = false;
		const deadline = this.#clock.now() + this.#limits.sliceMs;
		let idleTurns = 0;
		while (this.#ring.length) {
			if (this.#turn >= this.#ring.length) this.#turn = 0;
			const inbox = this.#ring[this.#turn];
			if (inbox.closed || inbox.waiting === 0) {
				this.#ring.splice(this.#turn, 1);
				continue;
			}
			const wait = inbox.budget.waitMs(1);
			if (wait > 0) {
				inbox.hold();
				this.#turn++;
				// A whole round with every waiting plugin over its budget: sleep until the first refills.
				if (++idleTurns >= this.#ring.length) return this.#sleep(this.#soonestRefill());
				continue;
			}
			idleTurns = 0;
			this.#turn++;
			try {
				inbox.readNext();
			} catch (error) {
				// One message's failure is its plugin's, never the other plugins'.
				console.warn('[plugins] a message could not be read', error);
			}
			if (this.#clock.now() >= deadline) return this.#schedule();
		}
	}

	#soonestRefill(): number {
		return Math.min(...this.#ring.map((inbox) => inbox.budget.waitMs(1)));
	}

	#sleep(ms: number): void {
		const until = this.#clock.now() + ms;
		if (until >= this.#sleepingUntil) return;
		this.#sleepingUntil = until;
		this.#clock.later(() => {
			if (this.#sleepingUntil !== until) return;
			this.#sleepingUntil = Infinity;
			this.#schedule();
		}, ms);
	}
}
