// The Plugins page's store: plugin rows, their live status, storing one the user added (its
// checks and confirmation are add-plugin.ts), enable/disable/reload/remove, and the hook log.
import { SvelteMap } from 'svelte/reactivity';
import type { PalimpsestDb } from '../../db/database';
import { addPlugin, clearHookLog, getPlugin, listPlugins, listStorageUsage, recentHookLog, removePlugin, updatePlugin } from '../../db/plugin-verbs';
import type { HookLogRow, PluginRow } from '../../db/schema';
import { watch } from '../../db/watch';
import type { HookBus } from '../../hooks/hook-bus';
import type { HookCallDetail } from '../../hooks/run-hook';
import { waitAtMost } from '../../hooks/timeouts';
import { describeError } from '../shared/turn-helpers';
import type { BudgetUsage } from '../../plugins/plugin-budgets';
import type { PluginHost } from '../../plugins/plugin-host';
import type { PluginHostLoader } from './plugin-host-loader';
import type { PluginInspector } from './plugin-inspector';
import { STARTUP_PLUGIN_WAIT_MS, type PluginStatus } from './plugin-status';

/** A plugin the user asked to add, waiting for their confirmation before it first runs. */
export interface PendingPlugin {
	url: string;
	/** The sha256 its code must match, if any. */
	pin: string | null;
}

export class PluginsState {
	rows = $state<PluginRow[]>([]);
	status = new SvelteMap<string, PluginStatus>();
	/** What each plugin ran into of its budgets in this tab (log lines dropped, messages refused). */
	usage = new SvelteMap<string, BudgetUsage>();
	log = $state<HookLogRow[]>([]);
	/** Bytes each plugin's storage holds, while the Plugins page follows them (see followStorage). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- replaced whole on each read, never changed in place
	storageUsed = $state<ReadonlyMap<string, number>>(new Map());
	/** A plugin waiting for the user's confirmation before it first runs. */
	pending = $state<PendingPlugin | null>(null);
	readonly safeMode: boolean;
	/**
	 * Settles when the enabled plugins have had their first load attempt, or after
	 * STARTUP_PLUGIN_WAIT_MS, whichever is first; it never rejects.
	 */
	ready: Promise<void>;
	/** Settles `ready` with the first load attempt, once start() runs. */
	#started!: (loading: Promise<void>) => void;
	#db: PalimpsestDb;
	/** The plugin host, whose code loads with the first plugin that runs (see PluginHostLoader). */
	#host: PluginHostLoader;
	/** Per plugin id, how many times it was unloaded: a load that waited for the host's code runs only if none came meanwhile. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#unloads = new Map<string, number>();
	#stopUsage: (() => void) | undefined;
	/** Stopped (see start()): a host whose code arrives after that is closed at once, and runs nothing. */
	#closed = false;
	/** Rows are followed (see #follow) once start-up has claimed the plugins it will load. */
	#following = false;
	#rowsSeen = false;
	/** Ids being added here, whose rows may not have arrived yet. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#adding = new Set<string>();
	/** Per plugin id, the `added_at` of the row its status (and running code) comes from. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#instances = new Map<string, number>();
	#hooks: HookBus;
	readonly #hookDetails: (callId: string) => HookCallDetail | undefined;
	#inspector: Promise<PluginInspector> | undefined;
	/** Loads under way, which settled() waits for. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#loading = new Set<Promise<void>>();

	constructor(parts: {
		db: PalimpsestDb;
		host: PluginHostLoader;
		hooks: HookBus;
		safeMode: boolean;
		/** The details of a hook call made in this tab (see createHookLogWriter). */
		hookDetails?: (callId: string) => HookCallDetail | undefined;
	}) {
		this.#db = parts.db;
		this.#host = parts.host;
		this.#hooks = parts.hooks;
		this.safeMode = parts.safeMode;
		this.#hookDetails = parts.hookDetails ?? (() => undefined);
		// A turn asked for before start() (plugins start just after the first paint) waits too,
		// counted from now: never longer than STARTUP_PLUGIN_WAIT_MS in all.
		const loading = new Promise<void>((resolve) => (this.#started = (work) => void work.then(resolve)));
		this.ready = waitAtMost(loading, STARTUP_PLUGIN_WAIT_MS);
	}

	/**
	 * Test events, storage and ctx.log views for plugin authors: loaded when the Plugins page
	 * first asks, so none of it is start-up code.
	 */
	loadInspector(): Promise<PluginInspector> {
		// A test event's writes go to the host's scratch storage: the host loads with the inspector.
		this.#inspector ??= Promise.all([import('./plugin-inspector'), this.#loadHost()]).then(
			([{ PluginInspector }, host]) => new PluginInspector({ db: this.#db, hooks: this.#hooks, scratch: host.scratch })
		);
		return this.#inspector;
	}

	/** Loads the host's code ahead of its first use (the Plugins page asks, so adding or switching on a plugin starts at once). */
	prepare(): void {
		// A failure is told by the action that needs the host, which tries again.
		this.#loadHost().catch(() => {});
	}

	/** The host, its code loaded now if no plugin has needed it yet. */
	async #loadHost(): Promise<PluginHost> {
		const host = await this.#host.load();
		// What each plugin runs into of its budgets shows on its row from now on.
		this.#stopUsage ??= host.budgets.subscribe((id) => this.usage.set(id, host.budgets.usage(id)));
		if (this.#closed) host.close();
		return host;
	}

	/** A hook call's payload, returned value and stack, if this tab made it recently. */
	hookCallDetail(callId: string | undefined): HookCallDetail | undefined {
		return callId ? this.#hookDetails(callId) : undefined;
	}

	start(): () => void {
		const loading = this.#loadAll().catch((error) => console.error('Loading plugins failed:', error));
		this.#started(loading);
		const stopRows = watch(
			() => listPlugins(this.#db),
			(rows) => {
				this.rows = rows;
				this.#rowsSeen = true;
				this.#follow(rows);
			}
		);
		return () => {
			stopRows();
			this.#closed = true;
			this.#stopUsage?.();
			this.#host.current?.close();
		};
	}

	/** Keeps `storageUsed` live while the Plugins page shows it; a plugin writing often costs other pages nothing. */
	followStorage(): () => void {
		return watch(() => listStorageUsage(this.#db), (used) => (this.storageUsed = used));
	}

	/** Keeps `log` live while something shows it (the Hook log), so chat pages read nothing. */
	followLog(): () => void {
		return watch(() => recentHookLog(this.#db), (rows) => (this.log = rows));
	}

	name(id: string): string {
		return this.#host.current?.get(id)?.manifest?.name ?? this.rows.find((r) => r.id === id)?.manifest?.name ?? id;
	}

	/**
	 * Stores a plugin the user confirmed (see add-plugin.ts) and runs it here; in safe mode it is
	 * stored switched off, and runs only once the user turns it on after leaving safe mode.
	 */
	async add(id: string, pending: PendingPlugin): Promise<void> {
		// Marked before the row exists, so following the rows does not start a second load.
		this.status.set(id, { state: 'loading' });
		this.#adding.add(id);
		let row: PluginRow;
		try {
			row = await this.#addRow(id, pending);
		} catch (error) {
			this.status.delete(id);
			throw error;
		} finally {
			this.#adding.delete(id);
		}
		this.rows = [...this.rows.filter((r) => r.id !== row.id), row];
		this.#instances.set(row.id, row.added_at);
		if (this.safeMode) this.status.set(row.id, { state: 'safe' });
		else await this.#load(row);
	}

	#addRow(id: string, pending: PendingPlugin): Promise<PluginRow> {
		return addPlugin(this.#db, {
			id,
			url: pending.url,
			enabled: this.safeMode ? 0 : 1,
			pinned_sha256: pending.pin,
			cached_source: null,
			cached_sha256: null,
			manifest: null,
			last_error: null,
			added_at: Date.now()
		});
	}

	async setEnabled(id: string, enabled: boolean): Promise<void> {
		// The status changes first, so following the rows sees this tab's own change as done.
		const before = this.status.get(id);
		const wasLoaded = this.#host.current?.isLoaded(id) ?? false;
		if (enabled) this.status.set(id, { state: 'loading' });
		else {
			this.#unload(id);
			this.status.set(id, { state: 'disabled' });
		}
		try {
			await updatePlugin(this.#db, id, { enabled: enabled ? 1 : 0 });
		} catch (error) {
			// Nothing changed in storage: show (and run) what was there before, then say why.
			const row = this.rows.find((r) => r.id === id);
			if (!enabled && wasLoaded && row) void this.#load(row);
			else if (before) this.status.set(id, before);
			else this.status.delete(id);
			throw error;
		}
		const row = await getPlugin(this.#db, id);
		if (!row) {
			// Removed meanwhile (here or in another tab): nothing to show a status for.
			this.#unload(id);
			this.status.delete(id);
			return;
		}
		if (enabled) await this.#load(row);
	}

	async reload(id: string): Promise<void> {
		const row = await getPlugin(this.#db, id);
		if (row?.enabled) await this.#load(row);
	}

	async remove(id: string): Promise<void> {
		this.#unload(id);
		this.#host.current?.logBook.clear(id);
		this.#host.current?.budgets.clear(id);
		this.usage.delete(id);
		this.status.delete(id);
		await removePlugin(this.#db, id);
	}

	/** The host ended a plugin on its own account (a budget broken, or its code stopped answering). */
	noteStopped(id: string, reason: string, unresponsive = false): void {
		this.status.set(id, { state: 'stopped', error: reason });
		if (unresponsive) void this.#restartIsolated(id);
	}

	/**
	 * A plugin whose code stopped answering may have taken all the memory of the process it ran
	 * in, and the browser runs every plugin's sandbox in one process (they are frames of one
	 * site): memory a stopped plugin filled is freed only when that process ends, and until then
	 * the other plugins there fail as soon as they need more. So the others are ended together,
	 * which ends the process, then started again in a fresh one; a plugin keeps what it stored.
	 */
	async #restartIsolated(stoppedId: string): Promise<void> {
		const ids = this.#host.current?.isolatedIds() ?? [];
		const stopped = this.rows.find((row) => row.id === stoppedId);
		const restarted = `Started again after ${stopped?.manifest?.name ?? stoppedId} was stopped, to free the memory it may have taken (plugins share one process).`;
		for (const id of ids) {
			this.#unload(id);
			this.status.set(id, { state: 'loading' });
		}
		for (const id of ids) {
			try {
				const row = await getPlugin(this.#db, id);
				if (!row?.enabled) {
					// Disabled meanwhile (a removed row has no status left).
					if (this.status.get(id)?.state === 'loading') this.status.set(id, { state: 'disabled' });
					continue;
				}
				await this.#load(row);
				const status = this.status.get(id);
				if (status?.state === 'loaded') this.status.set(id, { ...status, restarted });
			} catch (error) {
				this.status.set(id, { state: 'failed', error: describeError(error) });
			}
		}
	}

	clearLog(): Promise<void> {
		return clearHookLog(this.#db);
	}

	async #loadAll(): Promise<void> {
		const rows = await listPlugins(this.#db);
		if (!this.#rowsSeen) this.rows = rows;
		for (const row of rows) {
			this.#instances.set(row.id, row.added_at);
			if (this.safeMode) this.status.set(row.id, { state: 'safe' });
			else if (!row.enabled) this.status.set(row.id, { state: 'disabled' });
		}
		if (this.safeMode) return;
		const enabled = rows.filter((row) => row.enabled);
		for (const row of enabled) this.status.set(row.id, { state: 'loading' });
		this.#following = true;
		this.#follow(this.rows);
		// Every download starts at once, so one slow or hung server holds up no other plugin
		// for long; register(ctx) then runs in load order where it can (see PluginHost.load),
		// so a command name both plugins want goes to the earlier one. Hooks run in the list's
		// order in any case. Each row is read again first: the user may have disabled or
		// removed it meanwhile.
		let earlier: Promise<unknown> = Promise.resolve();
		const loads = enabled.map(({ id }) => {
			const after = earlier;
			const mine = (async () => {
				try {
					const row = await getPlugin(this.#db, id);
					if (row?.enabled && this.status.get(id)?.state === 'loading') await this.#load(row, after);
				} catch (error) {
					// A storage failure for one plugin leaves the others to load.
					this.status.set(id, { state: 'failed', error: describeError(error) });
				}
			})();
			earlier = Promise.all([after, mine]);
			return mine;
		});
		await Promise.all(loads);
	}

	/**
	 * Follows the rows as they change in this tab or another one: a plugin added or enabled
	 * elsewhere loads here too, and one disabled or removed elsewhere stops running here.
	 */
	#follow(rows: PluginRow[]): void {
		if (this.safeMode || !this.#following) return;
		this.#hooks.setPluginOrder(rows.map((r) => r.id));
		for (const id of [...this.status.keys()]) {
			if (this.#adding.has(id)) continue;
			const row = rows.find((r) => r.id === id);
			// Removed, or removed and added again (one live-query update can carry both): what
			// this tab runs, or shows, is not the plugin in the list any more.
			if (row && this.#instances.get(id) === row.added_at) continue;
			this.#unload(id);
			this.status.delete(id);
		}
		for (const row of rows) {
			const state = this.status.get(row.id)?.state;
			if (!row.enabled && state !== 'disabled') {
				this.#unload(row.id);
				this.#instances.set(row.id, row.added_at);
				this.status.set(row.id, { state: 'disabled' });
			} else if (row.enabled && (state === undefined || state === 'disabled')) {
				void this.#load(row);
			}
		}
	}

	/**
	 * Settles once start-up's loads and every load since (a plugin just added, switched on or
	 * reloaded) are done, or after STARTUP_PLUGIN_WAIT_MS: a command or a turn right after adding
	 * a plugin finds its commands and hooks. It never rejects.
	 */
	settled(): Promise<void> {
		return waitAtMost(Promise.all([this.ready, ...this.#loading]).then(() => {}), STARTUP_PLUGIN_WAIT_MS);
	}

	async #load(row: PluginRow, after?: Promise<unknown>): Promise<void> {
		const work = this.#loadRow(row, after);
		this.#loading.add(work);
		try {
			await work;
		} finally {
			this.#loading.delete(work);
		}
	}

	/** Stops the plugin's code, or a load of it still waiting for the host's code. */
	#unload(id: string): void {
		this.#unloads.set(id, (this.#unloads.get(id) ?? 0) + 1);
		this.#host.current?.unload(id);
	}

	/**
	 * The host for a load of `id` that waits for its code; null when the plugin was unloaded
	 * meanwhile, or this store stopped. Code that cannot be loaded fails the plugin's row.
	 */
	async #awaitHost(id: string): Promise<PluginHost | null> {
		const turn = this.#unloads.get(id) ?? 0;
		const current = () => !this.#closed && (this.#unloads.get(id) ?? 0) === turn;
		try {
			const host = await this.#loadHost();
			return current() ? host : null;
		} catch (error) {
			if (current()) this.status.set(id, { state: 'failed', error: describeError(error) });
			return null;
		}
	}

	async #loadRow(row: PluginRow, after?: Promise<unknown>): Promise<void> {
		this.#instances.set(row.id, row.added_at);
		this.status.set(row.id, { state: 'loading' });
		const host = this.#host.current ?? (await this.#awaitHost(row.id));
		// Unloaded while the host's code loaded: the newer action owns the status.
		if (!host) return;
		const outcome = await host.load(row, after);
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
