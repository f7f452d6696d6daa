// Test events from the Plugins page run against a scratch copy of a plugin's storage unless
// the author asks for the real one: what a test writes stays out of the plugin's real data,
// yet a test post_compaction followed by a test pre_llm_call sees what the first one wrote.
// The copy is made on the first test event and kept until the author resets it.
import type { PalimpsestDb } from '../db/database';
import { kvEntries } from '../db/plugin-verbs';
import { createMemoryStorage, type MemoryStorage } from './memory-storage';
import type { PluginStorage } from './plugin-storage';

/** A step of a test event's use of the scratch copy. */
export type ScratchStep = 'begin' | 'end' | 'reset';

/** The most entries a scratch copy takes from the real storage (the budget bounds their size). */
const COPY_LIMIT = 100_000;

export class ScratchStorage {
	#copies = new Map<string, Promise<MemoryStorage>>();
	/** Plugins with a test event running against their scratch copy, and how many. */
	#active = new Map<string, number>();
	readonly #db: PalimpsestDb;
	readonly #budget: () => number;
	/** Where plugins served elsewhere (by the plugin broker) keep a scratch copy of their own, told of each step. */
	readonly #remote: ((pluginId: string, step: ScratchStep) => Promise<void> | undefined) | undefined;

	constructor(db: PalimpsestDb, budget: () => number = () => Number.POSITIVE_INFINITY, remote?: (pluginId: string, step: ScratchStep) => Promise<void> | undefined) {
		this.#db = db;
		this.#budget = budget;
		this.#remote = remote;
	}

	/** Runs `work` with the plugin's storage calls going to its scratch copy. */
	async run<T>(pluginId: string, work: () => Promise<T>): Promise<T> {
		await this.begin(pluginId);
		try {
			return await work();
		} finally {
			this.end(pluginId);
		}
	}

	/** From now until the matching `end`, the plugin's storage calls go to its scratch copy. */
	async begin(pluginId: string): Promise<void> {
		await this.#copy(pluginId);
		this.#active.set(pluginId, (this.#active.get(pluginId) ?? 0) + 1);
		await this.#remote?.(pluginId, 'begin');
	}

	end(pluginId: string): void {
		const left = (this.#active.get(pluginId) ?? 1) - 1;
		if (left) this.#active.set(pluginId, left);
		else this.#active.delete(pluginId);
		void this.#remote?.(pluginId, 'end')?.catch(() => {});
	}

	/** The next test event starts from a fresh copy of the real storage. */
	reset(pluginId: string): void {
		this.#copies.delete(pluginId);
		void this.#remote?.(pluginId, 'reset')?.catch(() => {});
	}

	/** The plugin's `ctx.storage`: `real`, except while a test event runs against the scratch copy. */
	route(pluginId: string, real: PluginStorage): PluginStorage {
		const current = async (): Promise<PluginStorage> => (this.#active.has(pluginId) ? ((await this.#copies.get(pluginId)) ?? real) : real);
		return Object.freeze({
			get: async <T>(key: string) => (await current()).get<T>(key),
			set: async (key: string, value: unknown) => (await current()).set(key, value),
			delete: async (key: string) => (await current()).delete(key),
			keys: async (prefix?: string) => (await current()).keys(prefix)
		});
	}

	#copy(pluginId: string): Promise<MemoryStorage> {
		let copy = this.#copies.get(pluginId);
		if (!copy) {
			copy = kvEntries(this.#db, pluginId, COPY_LIMIT).then(({ rows }) =>
				createMemoryStorage(pluginId, () => true, new Map(rows.map((row) => [row.key, structuredClone(row.value)])), this.#budget())
			);
			copy.catch(() => this.#copies.delete(pluginId));
			this.#copies.set(pluginId, copy);
		}
		return copy;
	}
}
