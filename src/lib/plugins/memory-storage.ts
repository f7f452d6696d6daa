// `ctx.storage` held in memory, for a test kit: the same contract as the stored one (copies
// in and out, the same key rule, keys in order, closed once the plugin is unloaded).
import { checkStoredValue, DEFAULT_STORAGE_BUDGET_MB, entryBytes, storageBudgetBytes, storageFullMessage } from './plugin-budgets';
import type { PluginStorage } from './plugin-storage';
import { checkStorageKey, closedStorageError } from './storage-key';

export interface MemoryStorage extends PluginStorage {
	/** Every key and a copy of its value, in key order: what a test inspects. */
	entries(): [string, unknown][];
}

export function createMemoryStorage(
	pluginId: string,
	isOpen: () => boolean = () => true,
	data = new Map<string, unknown>(),
	budget = storageBudgetBytes(DEFAULT_STORAGE_BUDGET_MB)
): MemoryStorage {
	const open = () => {
		if (!isOpen()) throw closedStorageError(pluginId);
	};
	return Object.freeze({
		get: async <T>(key: string) => {
			open();
			return structuredClone(data.get(checkStorageKey(key))) as T | undefined;
		},
		set: async (key: string, value: unknown) => {
			open();
			const checked = checkStorageKey(key);
			const copy = structuredClone(value);
			const bytes = checkStoredValue(pluginId, checked, copy);
			// The same budget as the stored storage, counted the same way.
			let used = 0;
			for (const [k, v] of data) used += entryBytes(k, v);
			const oldBytes = data.has(checked) ? entryBytes(checked, data.get(checked)) : 0;
			if (bytes > oldBytes && used - oldBytes + bytes > budget) throw new RangeError(storageFullMessage(pluginId, bytes - oldBytes, used, budget));
			data.set(checked, copy);
		},
		delete: async (key: string) => {
			open();
			data.delete(checkStorageKey(key));
		},
		keys: async (prefix = '') => {
			open();
			return [...data.keys()].filter((key) => key.startsWith(String(prefix))).sort();
		},
		entries: () => [...data.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]): [string, unknown] => [key, structuredClone(value)])
	});
}
