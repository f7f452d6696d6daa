// The browser around SyncState in tests: Web Locks as a browser grants them, a BroadcastChannel
// between the tabs of one profile, and a sync worker whose runs a test ends and reports for.
import type { SyncWorker } from '../../sync/sync-client';
import type { SyncRunRequest } from '../../sync/sync-runner';
import type { SyncStatus } from '../../sync/sync-status';
import { SyncState, type SyncChannel, type SyncHost, type SyncLocks } from './sync.svelte';

/** Web Locks as a browser grants them: one holder, a queue in request order, steal, abort while waiting. */
export class FakeLocks implements SyncLocks {
	holder: Entry | null = null;
	queue: Entry[] = [];

	request(_name: string, options: { signal?: AbortSignal; steal?: boolean }, callback: (lock: unknown) => Promise<void>): Promise<unknown> {
		return new Promise((resolve, reject) => {
			const entry: Entry = { callback, resolve, reject, stolen: false };
			if (options.steal) {
				if (this.holder) {
					this.holder.stolen = true;
					this.holder.reject(new DOMException('The lock was stolen.', 'AbortError'));
					this.holder = null;
				}
				this.grant(entry);
			} else if (!this.holder) this.grant(entry);
			else {
				this.queue.push(entry);
				options.signal?.addEventListener('abort', () => {
					if (!this.queue.includes(entry)) return;
					this.queue = this.queue.filter((e) => e !== entry);
					reject(options.signal!.reason);
				});
			}
		});
	}

	private grant(entry: Entry): void {
		this.holder = entry;
		entry.callback({}).then(
			(value) => this.release(entry, () => entry.resolve(value)),
			(error) => this.release(entry, () => entry.reject(error))
		);
	}

	private release(entry: Entry, settle: () => void): void {
		if (entry.stolen) return;
		settle();
		this.holder = null;
		const next = this.queue.shift();
		if (next) this.grant(next);
	}
}

interface Entry {
	callback: (lock: unknown) => Promise<void>;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
	stolen: boolean;
}

class FakeWorker implements SyncWorker {
	runs: SyncRunRequest[] = [];
	online: boolean[] = [];
	visible: boolean[] = [];
	closed = false;
	running = false;
	private onStatus: ((status: SyncStatus) => void) | null = null;
	private end: (() => void) | null = null;

	run(request: SyncRunRequest, onStatus: (status: SyncStatus) => void): Promise<void> {
		this.runs.push(structuredClone(request));
		this.onStatus = onStatus;
		this.running = true;
		return new Promise((resolve) => (this.end = resolve));
	}
	emit(status: SyncStatus): void {
		this.onStatus!(status);
	}
	/** The loop met a failure only the user can mend: it reports it and its run ends. */
	fail(reason: string): void {
		this.emit({ state: 'error', reason, retryAt: null });
		this.finish();
	}
	stop(): void {
		this.finish();
	}
	setOnline(online: boolean): void {
		this.online.push(online);
	}
	setVisible(visible: boolean): void {
		this.visible.push(visible);
	}
	answers: boolean[] = [];
	answerDeletions(move: boolean): void {
		this.answers.push(move);
	}
	close(): void {
		this.closed = true;
	}
	private finish(): void {
		this.running = false;
		this.end?.();
	}
}

/** The tabs of one profile in one browser: a shared lock manager and channel. */
export function browser() {
	const locks = new FakeLocks();
	const members = new Set<{ name: string; hear: (message: unknown) => void }>();
	const tab = () => {
		const saved: Record<string, unknown>[] = [];
		const workers: FakeWorker[] = [];

		const page = { online: true, visible: true, listeners: new Set<() => void>() };
		const host: SyncHost = {
			profile: 'default',
			save: async (patch) => {
				saved.push(patch);
				return true;
			},
			locks,
			openChannel(name, onMessage): SyncChannel {
				const member = { name, hear: onMessage };
				members.add(member);
				return {
					// Like BroadcastChannel: to every other member of the same name, later.
					post: (message) => {
						for (const other of members) if (other !== member && other.name === name) queueMicrotask(() => other.hear(structuredClone(message)));
					},
					close: () => void members.delete(member)
				};
			},
			startWorker: async () => {
				const worker = new FakeWorker();
				workers.push(worker);
				return worker;
			},
			online: () => page.online,
			visible: () => page.visible,
			watchPage(onChange) {
				page.listeners.add(onChange);
				return () => page.listeners.delete(onChange);
			}
		};
		const state = new SyncState(host);
		return {
			state,
			saved,
			workers,
			page,
			worker: () => workers.at(-1)!,
			firePage: () => page.listeners.forEach((listener) => listener())
		};
	};
	return { locks, tab };
}
