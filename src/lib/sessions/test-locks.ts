// An in-memory Web Locks manager for Node tests (Node has no navigator.locks): exclusive and
// shared modes, ifAvailable, waiting requests granted in order, and query(). `beforeAnswer` lets
// a test act at the worst moment: after the manager decided a call's answer (granted, refused,
// or which locks are held) and before the caller learns it.
import { vi } from 'vitest';

type Mode = 'exclusive' | 'shared';

interface Entry {
	name: string;
	mode: Mode;
}

interface Waiting extends Entry {
	start: () => void;
}

export class FakeLockManager {
	held: Entry[] = [];
	pending: Waiting[] = [];
	/** Runs once, at the first request or query, between the decision and the answer. */
	beforeAnswer: (() => Promise<void>) | null = null;

	#hook(): Promise<void> {
		const hook = this.beforeAnswer;
		this.beforeAnswer = null;
		return hook ? hook() : Promise.resolve();
	}

	#grantable(name: string, mode: Mode): boolean {
		if (this.pending.some((p) => p.name === name)) return false;
		const holders = this.held.filter((h) => h.name === name);
		return holders.length === 0 || (mode === 'shared' && holders.every((h) => h.mode === 'shared'));
	}

	#pump(): void {
		for (const waiting of [...this.pending]) {
			const holders = this.held.filter((h) => h.name === waiting.name);
			const free = holders.length === 0 || (waiting.mode === 'shared' && holders.every((h) => h.mode === 'shared'));
			const first = this.pending.find((p) => p.name === waiting.name) === waiting;
			if (free && first) {
				this.pending.splice(this.pending.indexOf(waiting), 1);
				waiting.start();
			}
		}
	}

	isPending(name: string): boolean {
		return this.pending.some((p) => p.name === name);
	}

	request<T>(name: string, ...rest: unknown[]): Promise<T> {
		const callback = rest.pop() as (lock: { name: string; mode: Mode } | null) => T | Promise<T>;
		const options = (rest[0] ?? {}) as { mode?: Mode; ifAvailable?: boolean; signal?: AbortSignal };
		const mode = options.mode ?? 'exclusive';
		const entry: Entry = { name, mode };
		const run = async (): Promise<T> => {
			try {
				return await callback({ name, mode });
			} finally {
				this.held.splice(this.held.indexOf(entry), 1);
				this.#pump();
			}
		};
		if (this.#grantable(name, mode)) {
			this.held.push(entry);
			return this.#hook().then(run);
		}
		if (options.ifAvailable) return this.#hook().then(() => callback(null));
		return new Promise<T>((resolve, reject) => {
			this.pending.push({
				...entry,
				start: () => {
					this.held.push(entry);
					run().then(resolve, reject);
				}
			});
			void this.#hook();
		});
	}

	async query(): Promise<{ held: Entry[]; pending: Entry[] }> {
		const snapshot = { held: this.held.map((h) => ({ ...h })), pending: this.pending.map(({ name, mode }) => ({ name, mode })) };
		await this.#hook();
		return snapshot;
	}
}

/** Gives this test file a navigator.locks; undo with vi.unstubAllGlobals(). */
export function installFakeLocks(): FakeLockManager {
	const locks = new FakeLockManager();
	vi.stubGlobal('navigator', { locks });
	return locks;
}
