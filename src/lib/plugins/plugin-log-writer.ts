// Keeps each plugin's ctx.log lines across reloads: lines are written in small batches, so a
// plugin logging often never turns into one transaction per line (its log budget bounds the rate).
import type { PalimpsestDb } from '../db/database';
import { appendPluginLog, PLUGIN_LOG_LIMIT } from '../db/plugin-log-verbs';
import type { PluginLogRow } from '../db/schema';
import type { PluginLogLine } from './plugin-log-book';

const BATCH_MS = 250;

export function createPluginLogWriter(db: PalimpsestDb) {
	let pending: PluginLogRow[] = [];
	let timer: ReturnType<typeof setTimeout> | null = null;

	async function flush(): Promise<void> {
		if (timer) clearTimeout(timer);
		timer = null;
		const batch = pending;
		pending = [];
		try {
			await appendPluginLog(db, batch);
		} catch (error) {
			// The lines stay in this tab's memory; only their copy across reloads is lost.
			console.warn('[plugins] could not keep the plugins’ log lines', error);
		}
	}

	return {
		record(pluginId: string, line: PluginLogLine): void {
			pending.push({ plugin_id: pluginId, ...line });
			// The stored log keeps only the newest lines of each plugin: a burst never holds more in memory.
			if (pending.length > PLUGIN_LOG_LIMIT * 4) pending.splice(0, pending.length - PLUGIN_LOG_LIMIT * 4);
			timer ??= setTimeout(flush, BATCH_MS);
		},
		flush
	};
}
