// Which of a long list's last (or first) rows are on the page, drawn a slice at a time. Each slice mounts
// rows until a few milliseconds of work are spent, then lets the browser take input and paint
// before the next: drawing forty Markdown answers in one go holds a slow machine's main thread
// for hundreds of milliseconds, in slices never longer than one row takes. Rows added at the
// end (a new message, an answer) are drawn at once.
import { tick, untrack } from 'svelte';

/**
 * Script time per slice. A long answer takes a few milliseconds to draw and about as long again
 * to lay out, and on a busy machine a task also waits for a core: slices of a row or two stay
 * well under the 50 ms of a long task.
 */
const SLICE_MS = 4;

/** Gives the browser its turn: `scheduler.yield()` where there is one (the slices keep their place in line). */
function yieldToBrowser(): Promise<void> {
	const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
	if (scheduler?.yield) return scheduler.yield();
	return new Promise((resolve) => setTimeout(resolve, 0));
}

export interface SliceOptions<R, T> {
	/** The whole list, in order. */
	list: () => readonly R[];
	/** What the list belongs to: when it changes, the list starts over with `first` rows wanted. */
	owner: () => unknown;
	key: (row: R) => unknown;
	/** Rows wanted when a list starts over. */
	first: number;
	/**
	 * Draw from the top down (a list read from its start, opened above it) instead of from the
	 * last row up; rows added at the end then come in the next slices.
	 */
	fromStart?: boolean;
	/**
	 * Awaited once, after the first row (the Markdown renderer): that row is drawn at once, and
	 * drawn again when it settles; the others wait, so that each is drawn once.
	 */
	ready?: () => Promise<unknown>;
	/** Runs before each slice; what it returns is handed to `after` (a scroll position to keep). */
	before?: () => T;
	/** Runs once a slice is on the page, before the browser's turn. */
	after?: (noted: T) => void;
}

/** Create during a component's initialisation: it follows the list with an effect. */
export class RowSlices<R, T = void> {
	#options: SliceOptions<R, T>;
	/** How many of the last rows the reader asked for. */
	wanted = $state(0);
	/** How many of the last rows are on the page (at most `wanted`). */
	#drawn = $state(0);
	/** The rows on the page: the last ones of the list (the first ones, `fromStart`). */
	rows = $derived.by(() => {
		const all = this.#options.list();
		const count = Math.min(this.#drawn, all.length);
		if (count === all.length) return all;
		return this.#options.fromStart ? all.slice(0, count) : all.slice(all.length - count);
	});
	/** Rows before the wanted ones, that the reader can ask for. */
	hidden = $derived.by(() => Math.max(0, this.#options.list().length - this.wanted));
	#previous: readonly R[] = [];
	#owner: unknown = undefined;
	/** Bumped when the list starts over: a slice loop of an earlier list stops. */
	#run = 0;
	#growing = false;
	#ready: Promise<unknown> | null = null;
	#isReady = false;
	/** Called after each slice (and when the list starts over): `reach` waiting for its rows. */
	#onSlice: (() => void)[] = [];

	constructor(options: SliceOptions<R, T>) {
		this.#options = options;
		this.wanted = options.first;
		// Before the DOM updates: a list that jumps from nothing to hundreds of rows must not be drawn whole first.
		$effect.pre(() => {
			const list = options.list();
			const owner = options.owner();
			untrack(() => this.#follow(list, owner));
		});
		// The component is gone: a slice loop under way stops.
		$effect(() => () => void this.#run++);
	}

	/** Index of the first row on the page within the list. */
	get start(): number {
		return this.#options.fromStart ? 0 : this.#options.list().length - this.rows.length;
	}

	/** Rows asked for are still being drawn. */
	get drawing(): boolean {
		return this.#pending() > 0;
	}

	/** Asks for `count` more of the earlier rows. */
	more(count: number): void {
		this.wanted += count;
		void this.#grow();
	}

	/**
	 * Asks for the last `count` rows (a row far up that must be shown); resolves true once they
	 * are on the page, false if the list started over first.
	 */
	async reach(count: number): Promise<boolean> {
		const run = this.#run;
		if (count > this.wanted) this.more(count - this.wanted);
		while (run === this.#run && this.#pending() > 0 && this.#drawn < count) {
			await new Promise<void>((resolve) => this.#onSlice.push(resolve));
		}
		return run === this.#run;
	}

	#sliceDone(): void {
		const waiting = this.#onSlice;
		this.#onSlice = [];
		for (const resolve of waiting) resolve();
	}

	#follow(list: readonly R[], owner: unknown): void {
		const before = this.#owner === owner ? this.#previous : [];
		if (this.#owner !== owner) {
			this.#owner = owner;
			this.#run++;
			this.#growing = false;
			this.wanted = this.#options.first;
			this.#drawn = 0;
			this.#sliceDone();
		}
		this.#previous = list;
		const { key } = this.#options;
		const appended = !this.#options.fromStart && before.length > 0 && list.length > before.length && key(list[before.length - 1]) === key(before[before.length - 1]);
		this.#drawn = appended ? Math.min(this.wanted, this.#drawn + list.length - before.length) : Math.min(this.#drawn, list.length);
		void this.#grow();
	}

	/** Rows wanted that are not on the page yet. */
	#pending(): number {
		return Math.min(this.wanted, this.#options.list().length) - this.#drawn;
	}

	/** Draws rows until the wanted ones are on the page; one loop at a time. */
	async #grow(): Promise<void> {
		if (this.#growing || this.#pending() <= 0) return;
		this.#growing = true;
		const run = this.#run;
		try {
			this.#ready ??= (this.#options.ready?.() ?? Promise.resolve()).catch(() => {}).then(() => (this.#isReady = true));
			// Not in the task that brought the rows (reading them from the database took its share).
			await yieldToBrowser();
			while (run === this.#run && this.#pending() > 0) {
				const started = performance.now();
				const noted = this.#options.before?.() as T;
				// At least one row per slice, however slow: the list always gets there.
				do {
					this.#drawn++;
					await tick();
				} while (run === this.#run && this.#isReady && this.#pending() > 0 && performance.now() - started < SLICE_MS);
				if (run !== this.#run) return;
				this.#options.after?.(noted);
				this.#sliceDone();
				await (this.#isReady ? yieldToBrowser() : this.#ready);
			}
		} finally {
			if (run === this.#run) this.#growing = false;
			this.#sliceDone();
		}
	}
}
