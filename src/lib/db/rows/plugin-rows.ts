// A plugin's rows: the plugin itself, what its storage holds and uses, its log lines, and the
// hook log as stored.
import type { HookLogEntry } from '../../hooks/run-hook';

export interface PluginRow {
	id: string;
	url: string;
	position: number;
	enabled: 0 | 1;
	/** Optional sha256 (hex) the code must match. */
	pinned_sha256: string | null;
	/** The code that last loaded, so the plugin works offline. */
	cached_source: string | null;
	cached_sha256: string | null;
	manifest: { name?: string; version?: string; description?: string } | null;
	last_error: string | null;
	added_at: number;
	/** Before version 8: what `plugin_usage` now keeps (read only by the upgrade). */
	storage_bytes?: number;
}

/**
 * About how many bytes a plugin's `ctx.storage` holds (no row until its first write since it
 * was counted). Kept apart from the plugin's row, which the page follows: a plugin writing often
 * then never makes the page read every plugin's row (and its code) again.
 */
export interface PluginUsageRow {
	plugin_id: string;
	storage_bytes: number;
}

export interface PluginKvRow {
	plugin_id: string;
	key: string;
	value: unknown;
	/** About how many bytes the key and value take (absent on rows written before it was counted). */
	bytes?: number;
}

/** One `ctx.log` line of a plugin, kept across reloads (the newest PLUGIN_LOG_LIMIT per plugin). */
export interface PluginLogRow {
	id?: number;
	plugin_id: string;
	at: number;
	level: 'info' | 'warn' | 'error';
	text: string;
}

/** A hook log entry as stored: the call's details stay in the memory of the tab that made it. */
export type HookLogRow = Omit<HookLogEntry, 'detail'>;
