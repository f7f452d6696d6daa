// The plugin test kit: the app's own hook bus, plugin context, command and tool registries,
// with storage in memory instead of IndexedDB. Built into static/plugin-test-kit.js, so a
// plugin's tests in Node or a browser fire hooks under exactly the app's dispatch rules.
import { CommandRegistry, type CommandInvocation } from '../commands/command-registry';
import { HookBus, type FireReport } from '../hooks/hook-bus';
import { assertHookName, type HookName, type HookPayload } from '../hooks/hook-map';
import type { HookLogEntry, HookLogger } from '../hooks/run-hook';
import { samplePayload, TEST_SESSION_ID } from '../hooks/sample-payloads';
import { runRegister } from '../plugins/load-plugin';
import { createMemoryStorage, type MemoryStorage } from '../plugins/memory-storage';
import { createPluginContext, type PluginContext, type PluginManifest, type Registered } from '../plugins/plugin-context';
import { PluginLogBook, type PluginLogLine } from '../plugins/plugin-log-book';
import { ToolRegistry } from '../plugins/plugin-tools';
import { pluginIdFromUrl } from '../plugins/plugin-url';
import { readPluginModule } from '../plugins/read-plugin-module';

export interface TestKitOptions {
	/** The `plugins.hook_callback_timeout` setting in seconds: 30 by default, 0 = off. */
	timeoutSeconds?: number;
	/**
	 * Where the kit says so when a call ends in a warning, an error, a timeout or a skip (every
	 * call is in `calls` too): `console` by default, so a failing test shows why.
	 */
	logger?: HookLogger;
	/** Say nothing about such calls (for tests that cause them on purpose). */
	quiet?: boolean;
	/** Also print each `ctx.log` line to the console. */
	echoLogs?: boolean;
}

export interface LoadOptions {
	/** The id the app would give it (from the file name); default: from the manifest's name. */
	plugin_id?: string;
	/** Values the plugin's storage starts with, by key. */
	storage?: Record<string, unknown>;
}

export interface TestPlugin {
	readonly plugin_id: string;
	readonly manifest: PluginManifest | null;
	/** The `ctx` its register(ctx) received. */
	readonly ctx: PluginContext;
	/** Hook, command and tool names it registered, as the Plugins page lists them. */
	readonly registered: Registered;
	/** A copy of everything in its storage, by key, whether or not it is still loaded. */
	stored(): Record<string, unknown>;
	/** Its `ctx.log` lines so far, oldest first. */
	logs(): PluginLogLine[];
	/** Undoes everything it registered and closes its storage, as disabling it does. */
	unload(): void;
}

export type FireResult = FireReport;

export interface TestKit {
	/** Loads a plugin module as the app does: register(ctx) runs under the timeout, and a throw undoes it. */
	load(module: object, options?: LoadOptions): Promise<TestPlugin>;
	/** A ctx for a plugin with no module: what it registers takes part like a loaded plugin's. */
	context(plugin_id: string, options?: Omit<LoadOptions, 'plugin_id'>): TestPlugin;
	/**
	 * Fires `name` at every loaded plugin, with the app's rules for its kind. `fields` are laid
	 * over a made-up payload that has every documented field (see `payload`).
	 */
	fire(name: string, fields?: Record<string, unknown>): Promise<FireResult>;
	/** The payload `fire` sends: every field of `name`, made up (session id `test-session`), then `fields`. */
	payload<N extends HookName>(name: N, fields?: Partial<HookPayload<N>>): HookPayload<N>;
	/** Runs a slash command (`'/name args'`) as the user would; resolves to its shown output, throws what the user would see. */
	command(text: string, invocation?: Partial<CommandInvocation>): Promise<string | undefined>;
	/** Calls a plugin tool as the model would; resolves to the text the model gets, throws a tool error. */
	tool(name: string, args?: Record<string, unknown>, context?: { session_id?: string }): Promise<string>;
	/** Every call so far, as the Hook log lists them (outcome, result, warning, error). */
	readonly calls: readonly HookLogEntry[];
	/** Settles when every observer event fired so far has been delivered. */
	settled(): Promise<void>;
}

const PROBLEMS = new Set(['warning', 'error', 'timeout', 'skipped']);

export function createTestKit(options: TestKitOptions = {}): TestKit {
	const calls: HookLogEntry[] = [];
	const reporter: HookLogger = options.quiet ? { warn: () => {} } : (options.logger ?? console);
	const record = (entry: HookLogEntry) => {
		calls.push(entry);
		if (!PROBLEMS.has(entry.outcome)) return;
		const what = entry.warning ?? entry.error ?? '';
		reporter.warn(`[plugin test kit] ${entry.plugin_id} ${entry.hook}: ${entry.outcome}${what ? `: ${what}` : ''}`);
	};
	// The bus's own warnings would repeat what `record` says.
	const bus = new HookBus({ timeoutSeconds: () => options.timeoutSeconds ?? 30, record, logger: { warn: () => {} } });
	const commands = new CommandRegistry(bus);
	const tools = new ToolRegistry(bus);
	const book = new PluginLogBook();
	const plugins = new Map<string, TestPlugin>();
	const order: string[] = [];
	const quiet = { info: () => {}, warn: () => {}, error: () => {} };

	function start(pluginId: string, manifest: PluginManifest | null, seed: Record<string, unknown> = {}) {
		if (plugins.has(pluginId)) throw new Error(`A plugin with id "${pluginId}" is already loaded in this kit.`);
		const data = new Map<string, unknown>(Object.entries(structuredClone(seed)));
		let storage: MemoryStorage | undefined;
		const context = createPluginContext({
			pluginId,
			manifest,
			hooks: bus,
			commands,
			tools,
			storage: (isOpen) => (storage = createMemoryStorage(pluginId, isOpen, data)),
			hasPlugin: (id) => plugins.has(id),
			logger: options.echoLogs ? console : quiet,
			onLog: (level, args) => book.append(pluginId, level, args)
		});
		const plugin: TestPlugin = {
			plugin_id: pluginId,
			manifest: context.ctx.manifest,
			ctx: context.ctx,
			registered: context.registered,
			stored: () => Object.fromEntries(storage!.entries()),
			logs: () => book.lines(pluginId),
			unload() {
				if (plugins.get(pluginId) !== plugin) return;
				plugins.delete(pluginId);
				order.splice(order.indexOf(pluginId), 1);
				context.dispose();
				bus.unregisterPlugin(pluginId);
			}
		};
		plugins.set(pluginId, plugin);
		order.push(pluginId);
		bus.setPluginOrder(order);
		return { plugin, context };
	}

	function idFor(wanted: string | undefined, manifest: PluginManifest | null): string {
		if (wanted !== undefined) return wanted;
		const name = manifest?.name ?? 'plugin';
		return pluginIdFromUrl(`https://plugins.invalid/${encodeURIComponent(name)}.js`, new Set(plugins.keys()));
	}

	return {
		async load(module, loadOptions = {}) {
			const { register, manifest } = readPluginModule(module as Record<string, unknown>);
			const { plugin, context } = start(idFor(loadOptions.plugin_id, manifest), manifest, loadOptions.storage);
			try {
				await runRegister(bus, plugin.plugin_id, register, context.ctx);
			} catch (error) {
				plugin.unload();
				throw error;
			}
			return plugin;
		},
		context(pluginId, contextOptions = {}) {
			return start(pluginId, null, contextOptions.storage).plugin;
		},
		// Async, so an unknown name rejects like every other failure instead of throwing.
		async fire(name, fields = {}) {
			assertHookName(name);
			return bus.fire(name, { ...samplePayload(name), ...fields });
		},
		payload(name, fields = {}) {
			return { ...samplePayload(name), ...fields };
		},
		async command(text, invocation = {}) {
			const session_id = invocation.session_id ?? TEST_SESSION_ID;
			const session_key = invocation.session_key ?? `web:default:${session_id}`;
			const full: CommandInvocation = {
				session_id,
				session_key,
				platform: invocation.platform ?? 'web',
				source:
					invocation.source === undefined
						? { platform: 'web', user_id: 'test-user', user_name: 'Test User', chat_id: session_key, thread_id: session_id, profile: 'default' }
						: invocation.source
			};
			return (await commands.execute(text, full)).output;
		},
		tool(name, args = {}, context = {}) {
			return tools.run(name, args, { session_id: context.session_id ?? TEST_SESSION_ID });
		},
		calls,
		settled: () => bus.settled()
	};
}
