// Where a plugin's checked source runs. In the app, each plugin runs isolated (its own
// opaque-origin context, see sandbox/); tests and benchmarks can also run it in the page.
// Either way the host sees one shape: a started plugin whose register(ctx) it runs through
// the hook bus's choke point, and which it stops when the plugin is disabled, reloaded,
// removed or found stuck.
import type { ModuleImporter } from './import-plugin-module';
import type { PluginContext, PluginManifest } from './plugin-context';
import { readPluginModule } from './read-plugin-module';

export interface StartedPlugin {
	manifest: PluginManifest | null;
	/**
	 * Runs the plugin's register(ctx); `plugins`: the ids `ctx.has_plugin` knows of now;
	 * `addedAt`: the `added_at` of the row it was loaded from (its storage closes once that row is gone).
	 */
	register(ctx: PluginContext, plugins: readonly string[], addedAt: number): unknown;
	/** Loaded plugins changed: `ctx.has_plugin` answers from this list. */
	setPlugins(ids: readonly string[]): void;
	/**
	 * False when the plugin's code holds its context (an endless loop): a callback that only
	 * waits on something (a request, a timer) leaves it responsive.
	 */
	responsive(limitMs: number): Promise<boolean>;
	/** Ends the plugin's code for good; idempotent. */
	stop(): void;
	/** Settles when the runner stopped the plugin on its own (it broke a budget, or stopped answering). */
	readonly halted: Promise<Halt>;
	/** True when the code runs in its own context, away from the page. */
	readonly isolated: boolean;
}

/** Why a runner stopped a plugin on its own. */
export interface Halt {
	reason: string;
	/** Its code stopped answering: an endless loop, or its context ran out of memory. */
	unresponsive: boolean;
}

/** What a plugin's row shows of its budgets, counted since the last report. */
export interface UsageReport {
	logDropped: number;
	refused: number;
	/** Why the last refused message was refused. */
	last?: string;
	/** Storage calls refused for going over the bytes-per-second budget. */
	storageRefused: number;
	/** Messages that waited their turn for the plugin's bytes budget; messages dropped unread (too many waiting). */
	held: number;
	dropped: number;
	/** Tools refused for their size or depth, and why the last was. */
	toolsRefused: number;
	lastTool?: string;
}

/** What a runner tells the host of a plugin's budgets, for its Plugins row. */
export interface PluginReport {
	/** What it ran into since the last report: log lines dropped, messages refused, storage calls refused. */
	usage(report: UsageReport): void;
}

export interface PluginRunner {
	/** Throws a load error; `signal` aborts a start that takes too long (and stops what began). */
	start(source: string, url: string, signal: AbortSignal, report?: PluginReport): Promise<StartedPlugin>;
}

/** Runs plugins in the page itself: they share its privileges. For tests and benchmarks. */
export function inPageRunner(importer: ModuleImporter): PluginRunner {
	return {
		async start(source, url) {
			const parts = readPluginModule(await importer(source, url));
			return {
				manifest: parts.manifest,
				register: (ctx) => parts.register(ctx),
				setPlugins: () => {},
				responsive: async () => true,
				stop: () => {},
				halted: new Promise<Halt>(() => {}),
				isolated: false
			};
		}
	};
}
