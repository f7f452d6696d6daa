// The per-plugin key-value store handed to plugins as `ctx.storage`.
import type { PalimpsestDb } from '../db/database';
import { kvDelete, kvGet, kvKeys, kvSet } from '../db/plugin-verbs';

export interface PluginStorage {
	get(key: string): Promise<unknown>;
	set(key: string, value: unknown): Promise<void>;
	delete(key: string): Promise<void>;
	keys(prefix?: string): Promise<string[]>;
}

function checkKey(key: unknown): string {
	if (typeof key !== 'string' || !key) throw new TypeError('Storage keys are non-empty strings.');
	return key;
}

/**
 * Every method rejects (never throws synchronously) once `isOpen` turns false; writes also
 * reject once the plugin was removed in any tab, even before this tab has unloaded it.
 * `addedAt`: the `added_at` of the row the plugin was loaded from.
 */
export function createPluginStorage(
	db: PalimpsestDb,
	pluginId: string,
	isOpen: () => boolean = () => true,
	addedAt?: number
): PluginStorage {
	const owner = { pluginId, addedAt };
	// A timer or a late async callback of an unloaded plugin must not recreate rows that
	// removing the plugin deleted.
	const open = () => {
		if (!isOpen()) throw new Error(`Plugin "${pluginId}" is unloaded; its storage is closed.`);
	};
	return Object.freeze({
		get: async (key: string) => {
			open();
			return structuredClone(await kvGet(db, pluginId, checkKey(key)));
		},
		set: async (key: string, value: unknown) => {
			open();
			await kvSet(db, owner, checkKey(key), structuredClone(value));
		},
		delete: async (key: string) => {
			open();
			await kvDelete(db, owner, checkKey(key));
		},
		keys: async (prefix = '') => {
			open();
			return kvKeys(db, pluginId, String(prefix));
		}
	});
}
