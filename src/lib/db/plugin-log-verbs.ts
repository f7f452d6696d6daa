// Each plugin's recent ctx.log lines, kept across reloads so an author sees what a plugin said
// before the page was reloaded; bounded per plugin, so a chatty plugin never grows the database.
import Dexie from 'dexie';
import type { PalimpsestDb } from './database';
import type { PluginLogRow } from './schema';

/** How many lines each plugin keeps; older ones are dropped as new ones come. */
export const PLUGIN_LOG_LIMIT = 200;

const range = (pluginId: string) => [[pluginId, Dexie.minKey], [pluginId, Dexie.maxKey]] as const;

/** Appends lines (of any plugins) and trims each plugin's to its newest PLUGIN_LOG_LIMIT, in one transaction. */
export async function appendPluginLog(db: PalimpsestDb, rows: readonly PluginLogRow[]): Promise<void> {
	if (!rows.length) return;
	await db.transaction('rw', db.plugin_log, async () => {
		await db.plugin_log.bulkAdd(rows.map(({ id: _id, ...row }) => row));
		for (const pluginId of new Set(rows.map((row) => row.plugin_id))) {
			const [from, to] = range(pluginId);
			const all = db.plugin_log.where('[plugin_id+id]').between(from, to);
			const excess = (await all.count()) - PLUGIN_LOG_LIMIT;
			if (excess > 0) await db.plugin_log.bulkDelete(await all.limit(excess).primaryKeys());
		}
	});
}

/** A plugin's kept lines, oldest first. */
export function recentPluginLog(db: PalimpsestDb, pluginId: string): Promise<PluginLogRow[]> {
	const [from, to] = range(pluginId);
	return db.plugin_log.where('[plugin_id+id]').between(from, to).toArray();
}

export async function clearPluginLog(db: PalimpsestDb, pluginId: string): Promise<void> {
	const [from, to] = range(pluginId);
	await db.plugin_log.where('[plugin_id+id]').between(from, to).delete();
}
