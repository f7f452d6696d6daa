// Types for the Palimpsest plugin test kit (plugin-test-kit.js, served beside this file and
// plugin-api.d.ts). The kit is the app's own hook bus, plugin context and command and tool
// registries, with storage in memory: a plugin's tests fire hooks under the app's exact rules.
// Copy plugin-test-kit.js, this file and plugin-api.d.ts next to your plugin. Guide:
// docs/plugins.md, "Test your plugin".
import type { CommandContext, HookKind, HookName, HookPayload, PluginContext, PluginManifest } from './plugin-api.d.ts';

export interface TestKitOptions {
	/** The `plugins.hook_callback_timeout` setting in seconds: 30 by default, 0 = off. */
	timeoutSeconds?: number;
	/**
	 * Where the kit says so when a call ends in a warning, an error, a timeout or a skip (every
	 * call is in `calls` too): `console` by default, so a failing test shows why.
	 */
	logger?: { warn(message: string, ...details: unknown[]): void };
	/** Say nothing about such calls (for tests that cause them on purpose). */
	quiet?: boolean;
	/** Also print each `ctx.log` line to the console. */
	echoLogs?: boolean;
}

export interface LoadOptions {
	/** The id the app would give it (from the file name, `my-plugin.js` → `my-plugin`); default: from the manifest's name. */
	plugin_id?: string;
	/** Values the plugin's storage starts with, by key. */
	storage?: Record<string, unknown>;
}

/** One line of the plugin's `ctx.log`, as the Plugins page shows it. */
export interface PluginLogLine {
	at: number;
	level: 'info' | 'warn' | 'error';
	text: string;
}

export interface Registered {
	hooks: string[];
	commands: string[];
	tools: string[];
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

/**
 * - `ok`: the callback ran; `warning`: it ran but returned a value the app cannot use (see
 *   `warning`); `error`: it threw; `timeout`: it ran past the timeout; `skipped`: it timed out
 *   less than 60 s ago; `unheard`: no plugin listens to the hook.
 */
export type HookOutcome = 'ok' | 'warning' | 'error' | 'timeout' | 'skipped' | 'unheard';

/** One call, as the Hook log lists it. */
export interface HookCall {
	at: number;
	/** The hook, or `/name` for a command, `tool name` for a tool, `register(ctx)`. */
	hook: string;
	plugin_id: string;
	duration_ms: number;
	outcome: HookOutcome;
	/** What was thrown, or why the call was skipped or cut off. */
	error?: string;
	/** One line on what the call returned, as the app read it, e.g. `added context (120 chars): "…"`. */
	result?: string;
	/** For outcome `warning`: what was wrong with the value and what was expected. */
	warning?: string;
	/** The payload in short (ids and sizes; no message text). */
	summary: string;
	test?: boolean;
	call_id?: string;
	/** The payload and the returned value rendered in full (long parts cut), and a throw's stack. */
	detail?: { payload?: string; value?: string; stack?: string };
}

/** What one plugin added to the outgoing user message. */
export interface InjectedContext {
	plugin_id: string;
	text: string;
	/** Set when the plugin's text was cut to 16,000 characters, the most one plugin may add to a turn: how many it returned. */
	cut_from?: number;
}

/** What the app would do with the tool call. */
export interface ToolDecision {
	block: boolean;
	reason?: string;
	/** The arguments to run the tool with, present when some plugin replaced them. */
	args?: Record<string, unknown>;
	/** The plugin that blocked the call. */
	plugin_id?: string;
	/**
	 * The plugins whose `args` differed from the arguments they were given, in order; present
	 * when any did. A tool server's tool asks the user again before it runs with such arguments.
	 */
	rewritten_by?: string[];
}

export interface FireResult {
	hook: HookName;
	kind: HookKind;
	/** Each callback call of this dispatch, in order. */
	calls: HookCall[];
	/** `pre_llm_call`: each plugin's text, in load order (empty and unusable returns left out). */
	injected?: InjectedContext[];
	/** `pre_llm_call`: the texts joined with blank lines, as appended to the user's message ('' for none). */
	context?: string;
	/** `pre_tool_call`: the decision (first block wins; args rewrites chain, and who changed them is named; failures block). */
	decision?: ToolDecision;
}

export interface TestKit {
	/**
	 * Loads a plugin module (`import * as plugin from './my-plugin.js'`) as the app does:
	 * register(ctx) runs under the timeout; if it throws, what it registered is undone and the
	 * promise rejects with the message the Plugins page would show.
	 */
	load(module: object, options?: LoadOptions): Promise<TestPlugin>;
	/** A ctx for a plugin with no module: what it registers takes part like a loaded plugin's. */
	context(plugin_id: string, options?: Omit<LoadOptions, 'plugin_id'>): TestPlugin;
	/**
	 * Fires `name` at every loaded plugin with the app's rules for its kind: each callback gets
	 * a deep-frozen copy, observers are queued in order, collectors' texts are joined, directives
	 * decide. `fields` are laid over a made-up payload that has every documented field. An
	 * unknown hook name throws the app's error (with "Did you mean …?").
	 */
	fire<N extends HookName>(name: N, fields?: Partial<HookPayload<N>>): Promise<FireResult>;
	/** The payload `fire` sends: every field of `name`, made up (session id `test-session`), then `fields`. */
	payload<N extends HookName>(name: N, fields?: Partial<HookPayload<N>>): HookPayload<N>;
	/**
	 * Runs a slash command (`'/name args'`) as the user would; resolves to its shown output
	 * (undefined for none) and rejects with what the user would see. The invocation defaults to
	 * session `test-session` and a test user as `source`; pass `source: null` to test without one.
	 */
	command(text: string, invocation?: Partial<CommandContext>): Promise<string | undefined>;
	/** Calls a plugin tool as the model would; resolves to the text the model gets, rejects with the tool error. */
	tool(name: string, args?: Record<string, unknown>, context?: { session_id?: string }): Promise<string>;
	/** Every call so far, oldest first. */
	readonly calls: readonly HookCall[];
	/** Settles when every observer event fired so far has been delivered. */
	settled(): Promise<void>;
}

export function createTestKit(options?: TestKitOptions): TestKit;
