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

export function createPluginStorage(db: PalimpsestDb, pluginId: string): PluginStorage {
	return Object.freeze({
		get: async (key: string) => structuredClone(await kvGet(db, pluginId, checkKey(key))),
		set: (key: string, value: unknown) => kvSet(db, pluginId, checkKey(key), structuredClone(value)),
		delete: (key: string) => kvDelete(db, pluginId, checkKey(key)),
		keys: (prefix = '') => kvKeys(db, pluginId, String(prefix))
	});
}
