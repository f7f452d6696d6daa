// What crosses between the page and a plugin's isolated context: a fixed set of messages of
// plain data, each with a kind (`t`) and, where an answer is wanted, an id. The plugin's
// functions stay on its side, known to the page by a number (a handle); the page's objects
// stay in the page. Nothing here names a property path or carries a function, proxy or port.
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

/** An error as it crosses: text only. */
export interface WireError {
	name: string;
	message: string;
	stack?: string;
}

export type Answer = { t: 'answer'; id: number; ok: true; value: unknown } | { t: 'answer'; id: number; ok: false; error: WireError };

/** What the page asks the context; each crosses with an id, and its answer with the same id. */
export type PageQuestion =
	/** Imports the checked source; answers `{ manifest }`. */
	| { t: 'load'; source: string; url: string }
	/** Runs register(ctx); answers the RegistrationRecords made while it ran, in order. */
	| { t: 'start'; pluginId: string; plugins: string[] }
	/** Calls a registered function with copies of `args`; an observer's value comes back as an IgnoredValue. */
	| { t: 'call'; handle: number; args: unknown[] }
	/**
	 * Calls a hook callback with `payload`, its `conversation_history` rebuilt from `delta`
	 * (see history-delta.ts); answers `{ value }`, or `{ resend: true }` when this context does
	 * not hold the history the delta builds on (nothing ran).
	 */
	| { t: 'history'; handle: number; payload: Record<string, unknown>; delta: HistoryDelta }
	/** Answers `true` at once unless the plugin's code holds the context's only thread. */
	| { t: 'ping' };

/** What the page tells the context with no answer: the ids `ctx.has_plugin` knows of. */
export type PageNotice = { t: 'plugins'; ids: string[] };

export type PageRequest = (PageQuestion & { id: number }) | PageNotice;

/** What the context asks the page: with the notices below, the only requests the page accepts from a plugin. */
export type ContextQuestion =
	/** A registration made after register(ctx) returned; answered with nothing, or the page's refusal. */
	| { t: 'register'; record: RegistrationRecord }
	/** The plugin's own rows, served by the page; answered as the page's storage answers. */
	| { t: 'storage'; op: StorageOp; key: unknown; value?: unknown; /** Set by the page's reading: about the bytes of the message that carried the value. */ bytes?: number };

export type ContextNotice =
	| { t: 'unregister'; handle: number }
	/** `dropped`: lines the context itself dropped, over the log budget, since its last line. */
	| { t: 'log'; level: LogLevel; args: unknown[]; dropped: number }
	/** A tool the context refused for its size or depth (tool-bounds.ts), with the refusal the plugin got: for its row. */
	| { t: 'tool-refused'; reason: string };

export type ContextRequest = (ContextQuestion & { id: number }) | ContextNotice;

export type ContextMessage = ContextRequest | Answer;

export type PageMessage = PageRequest | Answer;

/** What an observer returned, reduced to its type: the page notes it and never reads it. */
export type IgnoredValue = { ignored: 'null' | 'array' | 'object' | 'function' | 'string' | 'number' | 'boolean' | 'bigint' | 'symbol' };

export const IGNORED_TYPES: ReadonlySet<string> = new Set(['null', 'array', 'object', 'function', 'string', 'number', 'boolean', 'bigint', 'symbol']);

export type LoadAnswer = { manifest: PluginManifest | null };
export type HistoryAnswer = { value: unknown } | { resend: true };

/** The most messages a second the page takes from one plugin context before it stops it. */
export const FLOOD_MESSAGES_PER_SECOND = 2_000;

/** An error as it crosses: its name, message and (from plugin code, for its author) stack. */
export function toWireError(error: unknown, withStack: boolean): WireError {
	try {
		if (error instanceof Error) {
			const wire: WireError = { name: String(error.name), message: String(error.message) };
			if (withStack && typeof error.stack === 'string') wire.stack = error.stack;
			return wire;
		}
		return { name: 'Error', message: String(error) };
	} catch {
		return { name: 'Error', message: 'an error that could not be read' };
	}
}
