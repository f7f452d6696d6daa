// The replication loop: a pass first checks that the database is the one this device's sync state
// belongs to (else everything is sent again and read from the start), sends what changed here,
// then receives what changed elsewhere; between passes it long-polls the changes feed while the
// app is visible and waits quietly otherwise; a failure is retried with exponential backoff and
// jitter; nothing runs offline. A pull that would move more sessions to "Recently deleted" than
// DELETIONS_WITHOUT_ASKING waits for the user's word. Free of browser globals (the page or a
// worker hands in `online`, `visible` and their events).
import type { CouchClient, Skipped } from './couch-client';
import { pullChanges } from './pull-changes';
import { DEFAULT_BATCH_BYTES, pushPending } from './push-pending';
import { SyncError } from './sync-error';
import type { SyncStatus } from './sync-status';
import { DeletionsToConfirm, type SyncStore } from './sync-store';

/** More sessions deleted elsewhere than this in one pull, and the pull asks first. */
export const DELETIONS_WITHOUT_ASKING = 10;
/** How long a long-poll that woke on a deletion waits for the rest of its burst (see PullOptions.settle). */
export const SETTLE_MS = 1_000;

/** Subscribes a listener to an event source; returns its undo. */
export type Subscribe = (listener: () => void) => () => void;

export interface Timers {
	now(): number;
	setTimeout(run: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

export interface SyncLoopOptions {
	store: SyncStore;
	client: CouchClient;
	/** Bytes one `_bulk_docs` request may carry. */
	batchBytes?: number;
	/** Changes per page of the feed. */
	pullLimit?: number;
	/** How long one long-poll waits for a change while the app is visible. */
	longPollMs?: number;
	/** How long to wait between passes while the app is hidden. */
	idleMs?: number;
	backoff?: { baseMs: number; maxMs: number };
	onStatus?: (status: SyncStatus) => void;
	online?: () => boolean;
	onOnline?: Subscribe;
	visible?: () => boolean;
	onVisible?: Subscribe;
	timers?: Timers;
	/** In [0, 1): the jitter of each backoff. */
	random?: () => number;
	/** Waits for a burst of deletions to finish arriving (by default SETTLE_MS on `timers`). */
	settle?: (signal?: AbortSignal) => Promise<void>;
	/** Runs first in each pass, before anything is read or sent (an encrypted database's key is checked there). */
	beforePass?: (signal?: AbortSignal) => Promise<void>;
}

export interface PassOutcome {
	pushed: number;
	pulled: number;
	skipped: Skipped[];
}

const systemTimers: Timers = {
	now: () => Date.now(),
	setTimeout: (run, ms) => setTimeout(run, ms),
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)
};

/** The wait before retry number `failures` (1, 2, …): doubling up to `maxMs`, a random half of it taken off. */
export function backoffDelay(failures: number, random: number, { baseMs, maxMs }: { baseMs: number; maxMs: number }): number {
	const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 30));
	return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

export class SyncLoop {
	private readonly options: Required<Omit<SyncLoopOptions, 'onStatus'>> & Pick<SyncLoopOptions, 'onStatus'>;
	private readonly wakers = new Set<() => void>();
	/** Ends the current long-poll early (a local change to send, the network or visibility moved). */
	private waking = new AbortController();
	private skippedTotal = 0;
	/** Sessions deleted elsewhere that the user agreed to move, and those the user kept, until the pull they answered is applied. */
	private readonly approved = new Set<string>();
	private readonly kept = new Set<string>();
	/** The deletions waiting for the user's word, and how to hear it. */
	private asking: { ids: readonly string[]; answer: (move: boolean) => void } | null = null;

	constructor(options: SyncLoopOptions) {
		const never: Subscribe = () => () => {};
		this.options = {
			batchBytes: DEFAULT_BATCH_BYTES,
			pullLimit: 200,
			longPollMs: 25_000,
			idleMs: 60_000,
			backoff: { baseMs: 1_000, maxMs: 5 * 60_000 },
			online: () => true,
			onOnline: never,
			visible: () => false,
			onVisible: never,
			timers: systemTimers,
			random: Math.random,
			settle: (signal) => this.pause(SETTLE_MS, signal),
			beforePass: async () => {},
			...options
		};
	}

	/**
	 * Makes sure the database is the one this device's sync state belongs to: a `_local` document
	 * (never replicated, so another database, or this one recreated, lacks it) names the state.
	 */
	private async checkDatabase(signal?: AbortSignal): Promise<void> {
		const { store, client } = this.options;
		const name = `palimpsest-${await store.deviceId()}`;
		const [local, remote] = await Promise.all([store.replication(), client.readLocal(name, signal)]);
		if (local && local.url === client.url && typeof remote?.replication === 'string' && remote.replication === local.id) return;
		const id = crypto.randomUUID();
		await client.writeLocal(name, { replication: id }, signal);
		await store.startReplication({ url: client.url, id });
	}

	/** One pass: send everything pending, then receive everything since the checkpoint. */
	async syncOnce(signal?: AbortSignal, longPollMs?: number): Promise<PassOutcome> {
		const { store, client, batchBytes, pullLimit } = this.options;
		await this.options.beforePass(signal);
		await this.checkDatabase(signal);
		// Housekeeping first, so what it decides (a purge) is sent in this same pass.
		await store.maintain?.();
		const push = () => pushPending({ store, client, batchBytes, signal, onProgress: (done, total) => this.report({ state: 'sending', done, total }) });
		const sent = await push();
		const received = await pullChanges({
			store,
			client,
			sent: sent.revisions,
			limit: pullLimit,
			longPollMs,
			signal,
			onProgress: (done, total) => this.report({ state: 'receiving', done, total }),
			apply: { allowDeletions: DELETIONS_WITHOUT_ASKING, approved: this.approved, keep: this.kept },
			settle: this.options.settle
		});
		// The answer was about those deletions: a later deletion of the same sessions is asked about anew.
		this.approved.clear();
		this.kept.clear();
		// What arrived may leave something to send at once: a merge, or a late message to remove.
		if (received.pulled) {
			const again = await push();
			sent.pushed += again.pushed;
			sent.skipped.push(...again.skipped);
		}
		const skipped = [...sent.skipped, ...received.skipped];
		this.skippedTotal += skipped.length;
		return { pushed: sent.pushed, pulled: received.pulled, skipped };
	}

	/** The user's word on the deletions asked about: move them to "Recently deleted", or keep them everywhere. */
	answerDeletions(move: boolean): void {
		this.asking?.answer(move);
	}

	/** Reports the deletions and waits for the user's word (or `signal`). */
	private async askAbout(ids: readonly string[], signal: AbortSignal): Promise<void> {
		this.report({ state: 'confirm-deletions', count: ids.length });
		const move = await new Promise<boolean | null>((resolve) => {
			const stop = () => resolve(null);
			signal.addEventListener('abort', stop, { once: true });
			this.asking = {
				ids,
				answer: (choice) => {
					signal.removeEventListener('abort', stop);
					resolve(choice);
				}
			};
		});
		this.asking = null;
		for (const id of ids) (move ? this.approved : this.kept).add(id);
	}

	/** A local change is waiting: end the current wait and run a pass. */
	nudge(): void {
		this.waking.abort();
		for (const wake of [...this.wakers]) wake();
	}

	/** Runs passes until `signal` aborts, or until a failure that only the user can mend (then its status says what to do). */
	async run(signal: AbortSignal): Promise<void> {
		const { online, visible, onOnline, onVisible, timers } = this.options;
		const undo = [onOnline(() => this.nudge()), onVisible(() => this.nudge())];
		let failures = 0;
		try {
			while (!signal.aborted) {
				if (!online()) {
					this.report({ state: 'offline' });
					await this.wait(Infinity, signal);
					continue;
				}
				this.waking = new AbortController();
				try {
					await this.syncOnce(signal);
					failures = 0;
					this.report({ state: 'up-to-date', at: timers.now(), skipped: this.skippedTotal });
					if (visible()) {
						const waiting = AbortSignal.any([signal, this.waking.signal]);
						await this.syncOnce(waiting, this.options.longPollMs);
						this.report({ state: 'up-to-date', at: timers.now(), skipped: this.skippedTotal });
					} else await this.wait(this.options.idleMs, signal);
				} catch (error) {
					if (signal.aborted) return;
					if (error instanceof DeletionsToConfirm) {
						await this.askAbout(error.sessionIds, signal);
						continue;
					}
					if (this.waking.signal.aborted && !(error instanceof SyncError)) continue;
					if (!online()) continue;
					if (error instanceof SyncError && !error.retry) {
						this.report({ state: 'error', reason: error.reason, retryAt: null, kind: error.kind });
						return;
					}
					failures += 1;
					const delay = backoffDelay(failures, this.options.random(), this.options.backoff);
					const reason = error instanceof SyncError ? error.reason : `Sync failed: ${error instanceof Error ? error.message : String(error)}. Will retry.`;
					this.report({ state: 'error', reason, retryAt: timers.now() + delay });
					await this.wait(delay, signal);
				}
			}
		} finally {
			for (const off of undo) off();
		}
	}

	private report(status: SyncStatus): void {
		this.options.onStatus?.(status);
	}

	/** Waits `ms`, or until `signal` aborts. */
	private pause(ms: number, signal?: AbortSignal): Promise<void> {
		const { timers } = this.options;
		return new Promise((resolve) => {
			const done = () => {
				timers.clearTimeout(handle);
				signal?.removeEventListener('abort', done);
				resolve();
			};
			const handle = timers.setTimeout(done, ms);
			signal?.addEventListener('abort', done, { once: true });
		});
	}

	/** Waits `ms`, or until a nudge or `signal` ends the wait. */
	private wait(ms: number, signal: AbortSignal): Promise<void> {
		const { timers } = this.options;
		return new Promise((resolve) => {
			const done = () => {
				if (handle !== undefined) timers.clearTimeout(handle);
				signal.removeEventListener('abort', done);
				this.wakers.delete(done);
				resolve();
			};
			const handle = ms === Infinity ? undefined : timers.setTimeout(done, ms);
			signal.addEventListener('abort', done);
			this.wakers.add(done);
		});
	}
}
