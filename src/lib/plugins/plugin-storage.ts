// The per-plugin key-value store handed to plugins as `ctx.storage`.
import type { PalimpsestDb } from '../db/database';
import { kvDelete, kvGet, kvKeys, kvSet, StorageBudgetError } from '../db/plugin-verbs';
import { checkStoredValue, entryBytes, storageFullMessage } from './plugin-budgets';
import { checkStorageKey as checkKey, closedStorageError } from './storage-key';

export interface PluginStorage {
	get<T = unknown>(key: string): Promise<T | undefined>;
	set(key: string, value: unknown): Promise<void>;
	delete(key: string): Promise<void>;
	keys(prefix?: string): Promise<string[]>;
}

/**
 * Every method rejects (never throws synchronously) once `isOpen` turns false; writes also
 * reject once the plugin was removed in any tab, even before this tab has unloaded it, and
 * once they would take it past `budget()` bytes in all (one value at most MAX_VALUE_BYTES).
 * `addedAt`: the `added_at` of the row the plugin was loaded from. `copies`: every value given
 * to `set` is already a copy of the app's own, and what `get` returns is handed on as a copy
 * (the plugin broker: both cross a port), so neither is copied again here.
 */
export function createPluginStorage(
	db: PalimpsestDb,
	pluginId: string,
	isOpen: () => boolean = () => true,
	addedAt?: number,
	budget: () => number = () => Number.POSITIVE_INFINITY,
	copies = false
): PluginStorage {
	const copy = copies ? <T>(value: T) => value : <T>(value: T) => structuredClone(value);
	const owner = { pluginId, addedAt };
	// A timer or a late async callback of an unloaded plugin must not recreate rows that
	// removing the plugin deleted.
	const open = () => {
		if (!isOpen()) throw closedStorageError(pluginId);
	};
	return Object.freeze({
		get: async <T>(key: string) => {
			open();
			// What the plugin stored under this key is its own business: the type is its claim.
			return copy(await kvGet(db, pluginId, checkKey(key))) as T | undefined;
		},
		set: async (key: string, value: unknown) => {
			open();
			const checked = checkKey(key);
			const stored = copy(value);
			const bytes = checkStoredValue(pluginId, checked, stored);
			try {
				await kvSet(db, owner, checked, stored, { bytes, budget: budget(), measure: entryBytes });
			} catch (error) {
				if (error instanceof StorageBudgetError) throw new RangeError(storageFullMessage(pluginId, error.needed, error.used, error.budget), { cause: error });
				throw error;
			}
		},
		delete: async (key: string) => {
			open();
			await kvDelete(db, owner, checkKey(key), entryBytes);
		},
		keys: async (prefix = '') => {
			open();
			return kvKeys(db, pluginId, String(prefix));
		}
	});
}
