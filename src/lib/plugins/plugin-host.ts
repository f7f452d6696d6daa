// The running plugins of this tab: loads rows into live registrations and unloads them, so
// enable, disable, reload and remove each undo everything a plugin registered.
import type { PalimpsestDb } from '../db/database';
import { updatePlugin } from '../db/plugin-verbs';
import type { PluginRow } from '../db/schema';
import type { HookBus } from '../hooks/hook-bus';
import { waitAtMost } from '../hooks/timeouts';
import { DEFAULT_FETCH_TIMEOUT_MS } from './fetch-plugin-source';
import { defaultImporter, type ModuleImporter } from './import-plugin-module';
import { loadPluginModule, runRegister } from './load-plugin';
import { createPluginContext, type CommandSink, type PluginManifest, type Registered } from './plugin-context';
import { BudgetBook } from './plugin-budgets';
import { PluginLogBook } from './plugin-log-book';
import { inPageRunner, type PluginRunner, type StartedPlugin } from './plugin-runner';
import { createPluginStorage } from './plugin-storage';
import { ScratchStorage } from './scratch-storage';
import type { ToolRegistry } from './plugin-tools';
import { BrokerSlot } from './broker/broker-slot';

export interface LoadedPlugin {
	id: string;
	/** The `added_at` of the row it was loaded from: a plugin removed and added again differs. */
	addedAt: number;
	manifest: PluginManifest | null;
	registered: Registered;
	sha256: string;
	fromCache: boolean;
	/** Runs in its own context, away from the page (see sandbox/). */
	isolated: boolean;
	dispose(): void;
}

/**
 * `superseded`: a later load or unload of the same plugin started while this one ran; it
 * undid its own work and wrote nothing, and its caller should leave the status to the newer action.
 */
export type LoadOutcome = { ok: true; plugin: LoadedPlugin } | { ok: false; error: string; superseded?: true };

export interface PluginHostParts {
	db: PalimpsestDb;
	hooks: HookBus;
	commands: CommandSink;
	tools: ToolRegistry;
	timeoutMs: () => number;
	/** Where plugin code runs; defaults to `importer` in the page (tests), or isolated in a browser. */
	runner?: PluginRunner;
	/** The plugin broker isolated plugins are served by (in a browser, one is started with the first plugin). */
	broker?: BrokerSlot;
	/** In-page runs (tests, benchmarks): how the checked source becomes a module. */
	importer?: ModuleImporter;
	/**
	 * A plugin was stopped on its own account; `reason` is for its row, `unresponsive` when its
	 * code stopped answering (an endless loop, or its context out of memory).
	 */
	onStopped?: (id: string, reason: string, unresponsive: boolean) => void;
	fetchImpl?: typeof fetch;
	logger?: Pick<Console, 'info' | 'warn' | 'error'>;
	/** Where `ctx.log` lines are kept for the Plugins page (one is made if not given). */
	logBook?: PluginLogBook;
	/** Bytes of `ctx.storage` each plugin may use (the setting); no limit if not given. */
	storageBudget?: () => number;
}

type Context = ReturnType<typeof createPluginContext>;

/** How long a plugin whose code is ready waits for earlier plugins before it registers. */
export const REGISTER_ORDER_GRACE_MS = 2_000;

/** After a timeout, how long a plugin's context has to answer before it counts as stuck. */
export const RESPONSIVE_LIMIT_MS = 1_500;

/** A call's name in the hook log (`pre_llm_call`, `/name`, `tool name`), in words. */
function describeCall(call: string): string {
	if (call.startsWith('/')) return `its command ${call}`;
	if (call.startsWith('tool ')) return `its tool "${call.slice(5)}"`;
	return call.includes('(') ? call : `its ${call} callback`;
}

/** In a browser, plugins run isolated, served by the tab's plugin broker; that code loads with the first plugin. */
function isolatedRunner(broker: BrokerSlot): PluginRunner {
	return {
		async start(source, url, signal, report) {
			const [{ brokeredRunner }, { openFrameSandbox }] = await Promise.all([import('./broker/brokered-runner'), import('./sandbox/frame-sandbox')]);
			return brokeredRunner(() => openFrameSandbox(url), () => broker.get()).start(source, url, signal, report);
		}
	};
}

function browserBroker(db: PalimpsestDb): BrokerSlot | null {
	if (typeof document === 'undefined') return null;
	return new BrokerSlot(async () => (await import('./broker/broker-client')).startBroker(db.name));
}

function superseded(): LoadOutcome {
	return { ok: false, superseded: true, error: 'A newer reload, disable or remove replaced this load.' };
}

export class PluginHost {
	#loaded = new Map<string, LoadedPlugin>();
	/** Bumped by every load and unload, so a load can tell that it has been overtaken. */
	#generation = new Map<string, number>();
	/** The context of a load still in register(ctx), so an unload can stop it mid-way. */
	#starting = new Map<string, Context>();
	/** Ends the wait of a load still downloading or importing when an unload or newer load comes. */
	#overtake = new Map<string, () => void>();
	/** The running code of each loaded or starting plugin, stopped with it. */
	#running = new Map<string, StartedPlugin>();
	readonly #parts: PluginHostParts;
	readonly #runner: PluginRunner;
	/** The recent `ctx.log` lines of each plugin, in this tab. */
	readonly logBook: PluginLogBook;
	/** What each plugin ran into of its budgets, in this tab. */
	readonly budgets = new BudgetBook();
	/** Where test events from the Plugins page store what they write, unless told to use the real storage. */
	readonly scratch: ScratchStorage;
	/** The broker that serves isolated plugins; null where plugins run in the page. */
	readonly broker: BrokerSlot | null;

	constructor(parts: PluginHostParts) {
		this.#parts = parts;
		this.broker = parts.broker ?? (parts.runner || parts.importer ? null : browserBroker(parts.db));
		// A test event's scratch copy is kept where the plugin's storage calls are served: here, and by the broker.
		this.scratch = new ScratchStorage(parts.db, parts.storageBudget, (pluginId, step) => this.broker?.running()?.scratch(pluginId, step));
		this.#runner = parts.runner ?? (parts.importer ? inPageRunner(parts.importer) : this.broker ? isolatedRunner(this.broker) : inPageRunner(defaultImporter()));
		this.logBook = parts.logBook ?? new PluginLogBook();
	}

	isLoaded(id: string): boolean {
		return this.#loaded.has(id);
	}

	get(id: string): LoadedPlugin | undefined {
		return this.#loaded.get(id);
	}

	/**
	 * `after`: settles when the plugins before this one in load order have loaded (or failed).
	 * Once its code is here, this plugin waits for them up to REGISTER_ORDER_GRACE_MS before
	 * register(ctx), so name clashes go to the earlier plugin while a hung one holds up no other.
	 */
	async load(row: PluginRow, after?: Promise<unknown>): Promise<LoadOutcome> {
		this.unload(row.id);
		const generation = this.#bump(row.id);
		const current = () => this.#generation.get(row.id) === generation;
		const overtaken = new Promise<null>((resolve) => this.#overtake.set(row.id, () => resolve(null)));
		const { db, hooks, commands, tools } = this.#parts;
		let context: Context | null = null;
		let code: StartedPlugin | undefined;
		try {
			// A download and import get at least the default: a short hook timeout is about
			// callbacks, not networks. With the hook timeout off they still get the default.
			const limitMs = Math.max(this.#parts.timeoutMs(), DEFAULT_FETCH_TIMEOUT_MS);
			const fetching = loadPluginModule(row, {
				fetchImpl: this.#parts.fetchImpl,
				fetchTimeoutMs: limitMs,
				importTimeoutMs: limitMs,
				runner: this.#runner,
				report: {
					usage: (usage) => {
						if (usage.logDropped) this.budgets.droppedLogs(row.id, usage.logDropped);
						if (usage.refused) this.budgets.refused(row.id, usage.last ?? 'a message the app does not accept', usage.refused);
						if (usage.storageRefused) this.budgets.storageRefused(row.id, usage.storageRefused);
						if (usage.held || usage.dropped) this.budgets.throttled(row.id, usage.held, usage.dropped);
						if (usage.toolsRefused) this.budgets.toolsRefused(row.id, usage.lastTool ?? 'a tool over the bounds of a tool', usage.toolsRefused);
					}
				},
				// A plugin's first copy is kept as soon as it is fetched and checked, so a reload
				// right after adding it starts offline too; once there is a copy, a newer one
				// replaces it only after it has loaded.
				onChecked: row.cached_source
					? undefined
					: async (source, sha256) => {
							if (current()) await updatePlugin(db, row.id, { cached_source: source, cached_sha256: sha256 });
						}
			});
			// When overtaken, its failure has no one to tell, and what it started must stop.
			fetching.then((late) => (current() ? undefined : late.plugin.stop()), () => {});
			// An unload or a newer load ends the wait at once, even for a hung import.
			const mod = await Promise.race([fetching, overtaken]);
			if (!mod || !current()) return superseded();
			code = mod.plugin;
			this.#running.set(row.id, code);
			this.#watchHalt(row.id, code);
			if (after) {
				await Promise.race([waitAtMost(after, REGISTER_ORDER_GRACE_MS), overtaken]);
				if (!current()) return superseded();
			}
			context = createPluginContext({
				pluginId: row.id,
				manifest: mod.plugin.manifest,
				hooks,
				commands,
				tools,
				// Storage refuses writes once this row (by its added_at) is gone, in any tab.
				storage: (isOpen) => this.scratch.route(row.id, createPluginStorage(db, row.id, isOpen, row.added_at, this.#parts.storageBudget)),
				hasPlugin: (id) => this.isLoaded(id),
				logger: this.#parts.logger,
				onLog: (level, args) => this.logBook.append(row.id, level, args),
				onLogsDropped: (count) => this.budgets.droppedLogs(row.id, count)
			});
			this.#starting.set(row.id, context);
			const started = code;
			await runRegister(hooks, row.id, (ctx) => started.register(ctx as Context['ctx'], this.#loadedIds(), row.added_at), context.ctx);
			if (!current()) return this.#abandon(context);
			await updatePlugin(db, row.id, {
				cached_source: mod.source,
				cached_sha256: mod.sha256,
				manifest: mod.plugin.manifest,
				last_error: null
			});
			// An unload during that write has already disposed the context.
			if (!current()) return superseded();
			this.#starting.delete(row.id);
			const plugin: LoadedPlugin = {
				id: row.id,
				addedAt: row.added_at,
				manifest: mod.plugin.manifest,
				registered: context.registered,
				sha256: mod.sha256,
				fromCache: mod.fromCache,
				isolated: started.isolated,
				dispose: context.dispose
			};
			this.#loaded.set(row.id, plugin);
			this.#announce();
			return { ok: true, plugin };
		} catch (error) {
			if (context) this.#abandon(context);
			// Only this load's code: a newer load of the same plugin may be running its own.
			if (code) {
				code.stop();
				if (this.#running.get(row.id) === code) this.#running.delete(row.id);
			}
			// A register(ctx) cut short by an unload fails too; that is not the plugin's fault.
			if (!current()) return superseded();
			const message = error instanceof Error ? error.message : String(error);
			await updatePlugin(db, row.id, { last_error: message });
			return current() ? { ok: false, error: message } : superseded();
		}
	}

	unload(id: string): void {
		this.#bump(id);
		const starting = this.#starting.get(id);
		if (starting) this.#abandon(starting);
		this.#stopCode(id);
		const plugin = this.#loaded.get(id);
		if (!plugin) return;
		this.#loaded.delete(id);
		plugin.dispose();
		this.#parts.hooks.unregisterPlugin(id);
		this.#announce();
	}

	/**
	 * Called when a call into the plugin timed out. A plugin whose code still answers was only
	 * waiting (the 60 s skip covers it); one whose code holds its context (an endless loop) is
	 * stopped: its context ends, everything it registered goes, and its row says why.
	 */
	async checkResponsive(id: string, call: string): Promise<void> {
		const code = this.#running.get(id);
		// Code in the page always counts as responsive: only an isolated context can be ended.
		if (!code || (await code.responsive(RESPONSIVE_LIMIT_MS))) return;
		// Reloaded, disabled or removed meanwhile: that code is already gone.
		if (this.#running.get(id) !== code) return;
		this.unload(id);
		const seconds = this.#parts.timeoutMs() / 1000;
		this.#parts.onStopped?.(
			id,
			`Stopped: ${describeCall(call)} did not answer within ${seconds} s and the plugin's code no longer responded (an endless loop?), so it was ended. Reload starts it again.`,
			true
		);
	}

	// The runner stopped the plugin on its own (a budget broken, a context gone quiet): unload it and say why.
	#watchHalt(id: string, code: StartedPlugin): void {
		void code.halted.then(({ reason, unresponsive }) => {
			// Reloaded, disabled or removed meanwhile: that code is already gone.
			if (this.#running.get(id) !== code) return;
			this.unload(id);
			this.#parts.onStopped?.(id, reason, unresponsive);
		});
	}

	#stopCode(id: string): void {
		this.#running.get(id)?.stop();
		this.#running.delete(id);
	}

	/** The loaded plugins whose code runs isolated, in load order. */
	isolatedIds(): string[] {
		return [...this.#loaded.values()].filter((plugin) => plugin.isolated).map((plugin) => plugin.id);
	}

	#loadedIds(): string[] {
		return [...this.#loaded.keys()];
	}

	/** Tells isolated plugins which plugins are loaded now (their `ctx.has_plugin` answers from it). */
	#announce(): void {
		const ids = this.#loadedIds();
		for (const [id, code] of this.#running) if (this.#loaded.has(id)) code.setPlugins(ids);
	}

	unloadAll(): void {
		for (const id of new Set([...this.#loaded.keys(), ...this.#starting.keys()])) this.unload(id);
	}

	/** Unloads every plugin and ends the broker (the page is going, or switching profile). */
	close(): void {
		this.unloadAll();
		this.broker?.close();
	}

	#bump(id: string): number {
		this.#overtake.get(id)?.();
		this.#overtake.delete(id);
		const next = (this.#generation.get(id) ?? 0) + 1;
		this.#generation.set(id, next);
		return next;
	}

	// Undoes exactly what this context registered: a newer load may already own the plugin id.
	#abandon(context: Context): LoadOutcome {
		context.dispose();
		if (this.#starting.get(context.ctx.plugin_id) === context) this.#starting.delete(context.ctx.plugin_id);
		return superseded();
	}
}
