// What one plugin may use of the page, and the counters its Plugins row shows. Budgets are
// checked where a plugin's request arrives; a plugin over one is throttled or refused with a
// message that says which budget and how much, never able to slow the page or fill the disk.
import { checkPlainData, formatBytes, MAX_VALUE_BYTES, measurePlainData } from '../hooks/plain-data';

export { MAX_VALUE_BYTES };

/** `ctx.log` lines a second, after a burst of LOG_BURST; the rest are dropped and counted. */
export const LOG_LINES_PER_SECOND = 50;
export const LOG_BURST = 200;
/** Hooks, commands and tools one plugin may have registered at once. */
export const MAX_REGISTRATIONS = 100;
/** Storage calls of one plugin waiting for the page at once; more are refused until they settle. */
export const MAX_PENDING_REQUESTS = 64;
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

	take(): boolean {
		const now = this.#now();
		this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#at) / 1000) * this.#rate);
		this.#at = now;
		if (this.#tokens < 1) return false;
		this.#tokens -= 1;
		return true;
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
}

/** Counters per plugin, kept in memory for this tab; the Plugins page subscribes to them. */
export class BudgetBook {
	#usage = new Map<string, BudgetUsage>();
	#listeners = new Set<(pluginId: string) => void>();
	/** Plugins changed since listeners were last told: a flood of drops tells them a few times a second, not per line. */
	#changed = new Set<string>();
	#timer: ReturnType<typeof setTimeout> | undefined;

	usage(pluginId: string): BudgetUsage {
		return { ...(this.#usage.get(pluginId) ?? { logDropped: 0, refused: 0 }) };
	}

	droppedLogs(pluginId: string, count: number): void {
		this.#change(pluginId, (u) => (u.logDropped += count));
	}

	refused(pluginId: string, why: string): void {
		this.#change(pluginId, (u) => {
			u.refused += 1;
			u.last = why;
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
		const usage = this.#usage.get(pluginId) ?? { logDropped: 0, refused: 0 };
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
