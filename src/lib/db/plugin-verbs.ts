// Plugin rows, their per-plugin key-value store and the bounded hook log.
import type { PalimpsestDb } from './database';
import { clearPluginLog } from './plugin-log-verbs';
import type { HookLogRow, PluginKvRow, PluginRow } from './schema';

export function listPlugins(db: PalimpsestDb): Promise<PluginRow[]> {
	return db.plugins.orderBy('position').toArray();
}

export function getPlugin(db: PalimpsestDb, id: string): Promise<PluginRow | undefined> {
	return db.plugins.get(id);
}

export async function addPlugin(db: PalimpsestDb, row: Omit<PluginRow, 'position'>): Promise<PluginRow> {
	return db.transaction('rw', db.plugins, async () => {
		const last = await db.plugins.orderBy('position').last();
		const stored = { ...row, position: (last?.position ?? -1) + 1 };
		await db.plugins.add(stored);
		return stored;
	});
}

export async function updatePlugin(
	db: PalimpsestDb,
	id: string,
	changes: Partial<Omit<PluginRow, 'id'>>
): Promise<void> {
	await db.plugins.update(id, changes);
}

/** Removes a plugin, everything it stored and the log lines kept of it. */
export async function removePlugin(db: PalimpsestDb, id: string): Promise<void> {
	await db.transaction('rw', [db.plugins, db.plugin_kv, db.plugin_log, db.plugin_usage], async () => {
		await db.plugins.delete(id);
		await db.plugin_kv.where('plugin_id').equals(id).delete();
		await db.plugin_usage.delete(id);
		await clearPluginLog(db, id);
	});
}

export async function kvGet(db: PalimpsestDb, pluginId: string, key: string): Promise<unknown> {
	return (await db.plugin_kv.get([pluginId, key]))?.value;
}

/**
 * Which plugin a write is for: its id and, when known, the `added_at` of the row it was
 * loaded from, so a plugin removed and added again is a different plugin.
 */
export interface PluginOwner {
	pluginId: string;
	addedAt?: number;
}

// Checked inside the write's own transaction, which removePlugin's transaction excludes: once
// a removal committed (in any tab), no write of the removed plugin can land after it.
async function assertInstalled(db: PalimpsestDb, owner: PluginOwner): Promise<PluginRow> {
	const row = await db.plugins.get(owner.pluginId);
	if (!row || (owner.addedAt !== undefined && row.added_at !== owner.addedAt)) {
		throw new Error(`Plugin "${owner.pluginId}" was removed; its storage is closed.`);
	}
	return row;
}

/** How a plugin's storage is counted against its budget; the measure is the caller's rule. */
export interface StorageQuota {
	/** Bytes of the entry being written. */
	bytes: number;
	/** The most the plugin's entries may take in all. */
	budget: number;
	/** The bytes of an entry stored before entries were counted. */
	measure(key: string, value: unknown): number;
}

/** A write refused because it would take the plugin past its storage budget; nothing was written. */
export class StorageBudgetError extends Error {
	constructor(
		readonly needed: number,
		readonly used: number,
		readonly budget: number
	) {
		super('storage budget exceeded');
		this.name = 'StorageBudgetError';
	}
}

async function storedBytes(db: PalimpsestDb, pluginId: string, quota: StorageQuota): Promise<number> {
	const counted = await db.plugin_usage.get(pluginId);
	if (counted) return counted.storage_bytes;
	let total = 0;
	await db.plugin_kv.where('plugin_id').equals(pluginId).each((entry) => (total += entry.bytes ?? quota.measure(entry.key, entry.value)));
	return total;
}

/** What each plugin's storage holds, in bytes, by plugin id (plugins never counted are absent). */
export async function listStorageUsage(db: PalimpsestDb): Promise<Map<string, number>> {
	return new Map((await db.plugin_usage.toArray()).map((row) => [row.plugin_id, row.storage_bytes]));
}

/**
 * Stores a value; refuses (rejects) when the plugin is no longer installed, or with a
 * StorageBudgetError when the write would take it past its budget (a write that shrinks an
 * entry is always allowed). The plugin's total is kept on its row, in the same transaction.
 */
export async function kvSet(db: PalimpsestDb, owner: PluginOwner, key: string, value: unknown, quota: StorageQuota): Promise<void> {
	await db.transaction('rw', [db.plugins, db.plugin_kv, db.plugin_usage], async () => {
		await assertInstalled(db, owner);
		const used = await storedBytes(db, owner.pluginId, quota);
		const old = await db.plugin_kv.get([owner.pluginId, key]);
		const oldBytes = old ? (old.bytes ?? quota.measure(key, old.value)) : 0;
		const total = used - oldBytes + quota.bytes;
		if (quota.bytes > oldBytes && total > quota.budget) throw new StorageBudgetError(quota.bytes - oldBytes, used, quota.budget);
		await db.plugin_kv.put({ plugin_id: owner.pluginId, key, value, bytes: quota.bytes });
		await db.plugin_usage.put({ plugin_id: owner.pluginId, storage_bytes: Math.max(0, total) });
	});
}

export async function kvDelete(db: PalimpsestDb, owner: PluginOwner, key: string, measure: StorageQuota['measure']): Promise<void> {
	await db.transaction('rw', [db.plugins, db.plugin_kv, db.plugin_usage], async () => {
		await assertInstalled(db, owner);
		const old = await db.plugin_kv.get([owner.pluginId, key]);
		if (!old) return;
		await db.plugin_kv.delete([owner.pluginId, key]);
		// A total never counted stays uncounted: the next write counts it whole.
		const counted = await db.plugin_usage.get(owner.pluginId);
		if (counted) await db.plugin_usage.put({ plugin_id: owner.pluginId, storage_bytes: Math.max(0, counted.storage_bytes - (old.bytes ?? measure(key, old.value))) });
	});
}

export async function kvKeys(db: PalimpsestDb, pluginId: string, prefix = ''): Promise<string[]> {
	const keys = await db.plugin_kv.where('plugin_id').equals(pluginId).primaryKeys();
	return keys.map(([, key]) => key).filter((key) => key.startsWith(prefix));
}

/** A plugin's stored values in key order, at most `limit` of them, and how many it has in all (read-only, for the Plugins page). */
export async function kvEntries(db: PalimpsestDb, pluginId: string, limit: number): Promise<{ rows: PluginKvRow[]; total: number }> {
	const [rows, total] = await Promise.all([
		db.plugin_kv.where('plugin_id').equals(pluginId).limit(limit).toArray(),
		db.plugin_kv.where('plugin_id').equals(pluginId).count()
	]);
	return { rows, total };
}

export const HOOK_LOG_LIMIT = 500;

/** Appends hook calls and trims the log to its newest HOOK_LOG_LIMIT rows. */
export async function appendHookLog(db: PalimpsestDb, rows: HookLogRow[]): Promise<void> {
	await db.transaction('rw', db.hook_log, async () => {
		await db.hook_log.bulkAdd(rows);
		const excess = (await db.hook_log.count()) - HOOK_LOG_LIMIT;
		if (excess > 0) {
			const old = await db.hook_log.orderBy('id').limit(excess).primaryKeys();
			await db.hook_log.bulkDelete(old);
		}
	});
}

export function recentHookLog(db: PalimpsestDb, limit = 200): Promise<HookLogRow[]> {
	return db.hook_log.orderBy('id').reverse().limit(limit).toArray();
}

export async function clearHookLog(db: PalimpsestDb): Promise<void> {
	await db.hook_log.clear();
}
