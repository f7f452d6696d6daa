// What crosses the boundary between the page and a plugin's isolated context. Everything is
// plain structured-cloneable data: the plugin's functions stay on its side, known to the page
// by a number (a handle), and the page's objects stay in the page.
import type { PluginManifest } from '../plugin-context';
import type { LogLevel } from '../plugin-log-book';
import type { HistoryDelta } from './history-delta';

export type CommandMeta = { description?: string; args_hint?: string };

/** One thing a plugin registered, as the page learns of it. */
export type RegistrationRecord =
	| { kind: 'hook'; handle: number; name: string }
	| { kind: 'command'; handle: number; name: string; meta: CommandMeta }
	| { kind: 'tool'; handle: number; name: unknown; description?: unknown; parameters?: unknown };

export type StorageOp = 'get' | 'set' | 'delete' | 'keys';

/** The page's side, as the plugin's context calls it. */
export interface SandboxHost {
	/** A registration made after register(ctx) returned; rejects with the page's refusal. */
	register(record: RegistrationRecord): Promise<void>;
	unregister(handle: number): Promise<void>;
	/** The plugin's own rows, served by the page; rejects as the page's storage does. */
	storage(op: StorageOp, key?: string, value?: unknown): Promise<unknown>;
	log(level: LogLevel, args: unknown[]): void;
}

/** The isolated side, as the page calls it. */
export interface SandboxRuntime {
	/** Imports the checked source and reads its register(ctx) and manifest. */
	load(source: string, url: string): Promise<{ manifest: PluginManifest | null }>;
	/**
	 * Runs register(ctx). What the plugin registered while it ran comes back as records, for
	 * the page to apply in order; later registrations go through `host.register`. `hostPort`
	 * serves the page's SandboxHost for this plugin.
	 */
	register(pluginId: string, plugins: string[], hostPort: MessagePort): Promise<RegistrationRecord[]>;
	/** Calls a registered function with copies of `args`; observers' values come back as stand-ins. */
	call(handle: number, args: unknown[]): Promise<unknown>;
	/**
	 * Calls a hook callback with `payload`, its `conversation_history` rebuilt from `history`
	 * (see history-delta.ts) in its place, all frozen. `resend` when this context does not hold
	 * the history the delta builds on: nothing ran, and the page sends the whole history.
	 */
	callWithHistory(handle: number, payload: Record<string, unknown>, history: HistoryDelta): Promise<{ value: unknown } | { resend: true }>;
	/** The ids `ctx.has_plugin` knows of: loaded plugins change while this one runs. */
	setPlugins(ids: string[]): void;
	/** Answers at once unless the plugin's code holds the context's only thread. */
	ping(): true;
}

/** What an observer returned, reduced to its type: the page notes it and never reads it. */
export type IgnoredValue = { ignored: 'null' | 'array' | 'object' | 'function' | 'string' | 'number' | 'boolean' | 'bigint' | 'symbol' };
