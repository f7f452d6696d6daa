// The Plugins page's store: plugin rows, their live status, adding with confirmation,
// enable/disable/reload/remove, and the hook log.
import { SvelteMap } from 'svelte/reactivity';
import type { PalimpsestDb } from '../db/database';
import { addPlugin, clearHookLog, getPlugin, listPlugins, recentHookLog, removePlugin, updatePlugin } from '../db/plugin-verbs';
import type { HookLogRow, PluginRow } from '../db/schema';
import { watch } from '../db/watch';
import type { HookBus } from '../hooks/hook-bus';
import { normalizePin } from '../plugins/fetch-plugin-source';
import type { Registered } from '../plugins/plugin-context';
import type { PluginHost } from '../plugins/plugin-host';
import { pluginIdFromUrl, resolvePluginUrl } from '../plugins/plugin-url';

export interface PluginStatus {
	state: 'loading' | 'loaded' | 'disabled' | 'failed' | 'safe';
	error?: string;
	registered?: Registered;
	fromCache?: boolean;
}

export class PluginsState {
	rows = $state<PluginRow[]>([]);
	status = new SvelteMap<string, PluginStatus>();
	log = $state<HookLogRow[]>([]);
	/** A plugin waiting for the user's confirmation before it first runs. */
	pending = $state<{ url: string; pin: string | null } | null>(null);
	readonly safeMode: boolean;
	/** Settles when the enabled plugins have had their first load attempt. */
	ready: Promise<void> = Promise.resolve();
	#db: PalimpsestDb;
	#host: PluginHost;
	#hooks: HookBus;

	constructor(parts: { db: PalimpsestDb; host: PluginHost; hooks: HookBus; safeMode: boolean }) {
		this.#db = parts.db;
		this.#host = parts.host;
		this.#hooks = parts.hooks;
		this.safeMode = parts.safeMode;
	}

	start(): () => void {
		this.ready = this.#loadAll();
		const stopRows = watch(() => listPlugins(this.#db), (rows) => (this.rows = rows));
		const stopLog = watch(() => recentHookLog(this.#db), (rows) => (this.log = rows));
		return () => {
			stopRows();
			stopLog();
			this.#host.unloadAll();
		};
	}

	name(id: string): string {
		return this.#host.get(id)?.manifest?.name ?? this.rows.find((r) => r.id === id)?.manifest?.name ?? id;
	}

	/** Validates the URL and pin, then waits for the user to confirm. */
	requestAdd(input: string, pin: string): void {
		const url = resolvePluginUrl(input, location.origin);
		if (this.rows.some((row) => row.url === url)) throw new Error('This plugin is already added.');
		this.pending = { url, pin: normalizePin(pin) };
	}

	async confirmAdd(): Promise<void> {
		const pending = this.pending;
		this.pending = null;
		if (!pending) return;
		const row = await addPlugin(this.#db, {
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a throwaway lookup, not state
			id: pluginIdFromUrl(pending.url, new Set(this.rows.map((r) => r.id))),
			url: pending.url,
			enabled: 1,
			pinned_sha256: pending.pin,
			cached_source: null,
			cached_sha256: null,
			manifest: null,
			last_error: null,
			added_at: Date.now()
		});
		this.rows = [...this.rows, row];
		await this.#load(row);
	}

	async setEnabled(id: string, enabled: boolean): Promise<void> {
		await updatePlugin(this.#db, id, { enabled: enabled ? 1 : 0 });
		const row = await getPlugin(this.#db, id);
		if (!row) {
			// Removed meanwhile (here or in another tab): nothing to show a status for.
			this.#host.unload(id);
			this.status.delete(id);
			return;
		}
		if (enabled) await this.#load(row);
		else {
			this.#host.unload(id);
			this.status.set(id, { state: 'disabled' });
		}
	}

	async reload(id: string): Promise<void> {
		const row = await getPlugin(this.#db, id);
		if (row?.enabled) await this.#load(row);
	}

	async remove(id: string): Promise<void> {
		this.#host.unload(id);
		this.status.delete(id);
		await removePlugin(this.#db, id);
	}

	async setPin(id: string, pin: string): Promise<void> {
		await updatePlugin(this.#db, id, { pinned_sha256: normalizePin(pin) });
	}

	clearLog(): Promise<void> {
		return clearHookLog(this.#db);
	}

	async #loadAll(): Promise<void> {
		const rows = await listPlugins(this.#db);
		this.rows = rows;
		for (const row of rows) {
			if (this.safeMode) this.status.set(row.id, { state: 'safe' });
			else if (!row.enabled) this.status.set(row.id, { state: 'disabled' });
		}
		if (this.safeMode) return;
		// One at a time, in load order, so hook order follows the list. Each row is read again
		// first: the user may have disabled or removed it while earlier plugins loaded.
		for (const { id } of rows) {
			const row = await getPlugin(this.#db, id);
			if (row?.enabled) await this.#load(row);
		}
	}

	async #load(row: PluginRow): Promise<void> {
		this.status.set(row.id, { state: 'loading' });
		const outcome = await this.#host.load(row);
		this.#hooks.setPluginOrder(this.rows.map((r) => r.id));
		// A newer reload, disable or remove owns the status now (and a removed row has none).
		if (!outcome.ok && outcome.superseded) return;
		this.status.set(
			row.id,
			outcome.ok
				? { state: 'loaded', registered: outcome.plugin.registered, fromCache: outcome.plugin.fromCache }
				: { state: 'failed', error: outcome.error }
		);
	}
}
