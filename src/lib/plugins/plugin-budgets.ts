// What one plugin may use of the page, and the counters its Plugins row shows. Budgets are
// checked where a plugin's request arrives; a plugin over one is throttled or refused with a
// message that says which budget and how much, never able to slow the page or fill the disk.
import { checkPlainData, formatBytes, MAX_VALUE_BYTES, measurePlainData } from '../hooks/plain-data';

export { MAX_VALUE_BYTES };

/** `ctx.log` lines a second, after a burst of LOG_BURST; the rest are dropped and counted. */
export const LOG_LINES_PER_SECOND = 50;
export const LOG_BURST = 200;
/**
 * Bytes of `ctx.storage` one plugin may read and write a second, after a burst (overwrites count
 * in full: a plugin rewriting one key never runs out of space, but it does of this); calls
 * over it are refused.
 */
export const STORAGE_BYTES_PER_SECOND = 1024 * 1024;
export const STORAGE_BYTES_BURST = 8 * 1024 * 1024;
/** Writes and deletes of `ctx.storage` a second, after a burst; more wait their turn. */
export const STORAGE_WRITES_PER_SECOND = 50;
export const STORAGE_WRITES_BURST = 200;
/** Hooks, commands and tools one plugin may have registered at once. */
export const MAX_REGISTRATIONS = 100;
/** Storage calls of one plugin waiting for the page at once; more are refused until they settle. */
export const MAX_PENDING_REQUESTS = 64;
/**
 * Bytes of messages the app reads from one plugin a second, after a burst; past it the
 * plugin's messages (its answers among them) wait their turn, read as the budget refills.
 */
export const MESSAGE_BYTES_PER_SECOND = 16 * 1024 * 1024;
export const MESSAGE_BYTES_BURST = 32 * 1024 * 1024;
/** Messages of one plugin waiting to be read at once; more are dropped unread and counted. */
export const MAX_WAITING_MESSAGES = 400;
/** Default bytes of `ctx.storage` per plugin (Settings → Plugins); the setting's bounds. */
export const DEFAULT_STORAGE_BUDGET_MB = 5;
export const MAX_STORAGE_BUDGET_MB = 500;
/** Bytes of one storage key. */
export const MAX_KEY_CHARS = 1024;

export function storageBudgetBytes(megabytes: number): number {
	const mb = Number.isFinite(megabytes) && megabytes > 0 ? Math.min(megabytes, MAX_STORAGE_BUDGET_MB) : DEFAULT_STORAGE_BUDGET_MB;
	return Math.round(mb * 1024 * 1024);
}

/** About how many bytes an entry of `ctx.storage` takes: its key and its value. */
export function entryBytes(key: string, value: unknown): number {
	return key.length * 2 + measurePlainData(value);
}

/** Throws when `value` (already a copy) is not plain data or is over MAX_VALUE_BYTES; returns the entry's bytes. */
export function checkStoredValue(pluginId: string, key: string, value: unknown): number {
	const check = checkPlainData(value, { maxBytes: MAX_VALUE_BYTES });
	if (!check.ok) throw new RangeError(`Plugin "${pluginId}" cannot store this value: ${check.reason}.`);
	return key.length * 2 + check.bytes;
}

export function storageFullMessage(pluginId: string, needed: number, used: number, budget: number): string {
	return (
		`Plugin "${pluginId}" storage is full: this write needs ${formatBytes(needed)} more, and it uses ` +
		`${formatBytes(used)} of its ${formatBytes(budget)} (Settings → Plugins sets the budget). Delete keys it no longer needs.`
	);
}

export function tooManyPendingMessage(): string {
	return `Too many calls waiting for the page at once (${MAX_PENDING_REQUESTS}); await earlier ones first.`;
}

export function tooManyRegistrationsMessage(pluginId: string): string {
	return `Plugin "${pluginId}" already has ${MAX_REGISTRATIONS} hooks, commands and tools registered, the most one plugin may have.`;
}

/**
 * A token bucket: `take()` is true while the rate allows, false for what is over it.
 * Time comes from `now`, so tests and the isolated runtime drive it alike.
 */
export class RateBudget {
	#tokens: number;
	#at: number;
	readonly #rate: number;
	readonly #burst: number;
	readonly #now: () => number;

	constructor(perSecond: number, burst: number, now: () => number = () => Date.now()) {
		this.#rate = perSecond;
		this.#burst = burst;
		this.#tokens = burst;
		this.#now = now;
		this.#at = now();
	}

	/** Takes `amount` when the rate allows it now; false (and nothing taken) when it does not. */
	take(amount = 1): boolean {
		this.#refill();
		if (this.#tokens < amount) return false;
		this.#tokens -= amount;
		return true;
	}

	/** Takes `amount` whatever is left, for what is only known once done (bytes read): later takes wait for it. */
	charge(amount: number): void {
		this.#refill();
		this.#tokens -= amount;
	}

	/** How long until `amount` could be taken (0: now). */
	waitMs(amount = 1): number {
		this.#refill();
		return this.#tokens >= amount ? 0 : Math.ceil(((amount - this.#tokens) / this.#rate) * 1000);
	}

	#refill(): void {
		const now = this.#now();
		this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#at) / 1000) * this.#rate);
		this.#at = now;
	}
}

const NOTIFY_EVERY_MS = 250;

/** What a plugin ran into in this tab, for its Plugins row. */
export interface BudgetUsage {
	/** `ctx.log` lines dropped for going over LOG_LINES_PER_SECOND. */
	logDropped: number;
	/** Messages from its context that the page refused (malformed, or a kind it does not accept). */
	refused: number;
	/** Why the last refused message was refused. */
	last?: string;
	/** Storage calls refused for going over STORAGE_BYTES_PER_SECOND. */
	storageRefused: number;
	/** Messages from it that waited their turn for going over MESSAGE_BYTES_PER_SECOND. */
	held: number;
	/** Messages from it dropped unread: MAX_WAITING_MESSAGES were waiting already. */
	dropped: number;
	/** Tools it tried to register over the bounds of a tool (tool-bounds.ts), and why the last was refused. */
	toolsRefused: number;
	lastTool?: string;
}

const NO_USAGE: BudgetUsage = { logDropped: 0, refused: 0, storageRefused: 0, held: 0, dropped: 0, toolsRefused: 0 };

/** Counters per plugin, kept in memory for this tab; the Plugins page subscribes to them. */
export class BudgetBook {
	#usage = new Map<string, BudgetUsage>();
	#listeners = new Set<(pluginId: string) => void>();
	/** Plugins changed since listeners were last told: a flood of drops tells them a few times a second, not per line. */
	#changed = new Set<string>();
	#timer: ReturnType<typeof setTimeout> | undefined;

	usage(pluginId: string): BudgetUsage {
		return { ...(this.#usage.get(pluginId) ?? NO_USAGE) };
	}

	droppedLogs(pluginId: string, count: number): void {
		this.#change(pluginId, (u) => (u.logDropped += count));
	}

	refused(pluginId: string, why: string, count = 1): void {
		this.#change(pluginId, (u) => {
			u.refused += count;
			u.last = why;
		});
	}

	storageRefused(pluginId: string, count: number): void {
		this.#change(pluginId, (u) => (u.storageRefused += count));
	}

	/** Adds what the broker reported of its reading: messages held for the bytes budget, dropped unread. */
	throttled(pluginId: string, held: number, dropped: number): void {
		this.#change(pluginId, (u) => {
			u.held += held;
			u.dropped += dropped;
		});
	}

	toolsRefused(pluginId: string, why: string, count = 1): void {
		this.#change(pluginId, (u) => {
			u.toolsRefused += count;
			u.lastTool = why;
		});
	}

	clear(pluginId: string): void {
		this.#usage.delete(pluginId);
		for (const listener of this.#listeners) listener(pluginId);
	}

	subscribe(listener: (pluginId: string) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	#change(pluginId: string, apply: (usage: BudgetUsage) => void): void {
		const usage = this.#usage.get(pluginId) ?? { ...NO_USAGE };
		apply(usage);
		this.#usage.set(pluginId, usage);
		this.#changed.add(pluginId);
		if (this.#timer !== undefined) return;
		this.#timer = setTimeout(() => {
			this.#timer = undefined;
			const changed = [...this.#changed];
			this.#changed.clear();
			for (const id of changed) for (const listener of this.#listeners) listener(id);
		}, NOTIFY_EVERY_MS);
	}
}
