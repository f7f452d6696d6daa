// Types for Palimpsest plugin authors. Self-contained: copy this file next to your plugin, or
// reference it from JSDoc, e.g. `/** @import { PluginContext } from './plugin-api.d.ts' */`.
// A Palimpsest install serves it at /plugin-api.d.ts. The guide is docs/plugins.md.
//
// Everything that crosses between a plugin and the app is plain structured-cloneable data:
// no functions, class instances or DOM objects in payloads, return values or storage.

// ---------------------------------------------------------------------------------------------
// Shared shapes used by the payloads
// ---------------------------------------------------------------------------------------------

/** Where the session runs; always `'web'` in Palimpsest. */
export type Platform = string;

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** One message of the conversation as the model will see it. */
export type HistoryMessage = {
	role: ChatRole;
	content: string;
};

/** Token usage as the provider reported it for the turn. */
export type TokenUsage = {
	input_tokens: number;
	output_tokens: number;
	total_tokens?: number;
};

/**
 * - `summarize`: the middle of the transcript became one summary.
 * - `micro_summarize`: one old exchange was folded into a rolling summary.
 * - `prune_tool_results`: old tool outputs were replaced by one-line stubs (no model call).
 * - `provider_native`: the provider compacted the conversation itself.
 */
export type CompactionKind = 'summarize' | 'micro_summarize' | 'prune_tool_results' | 'provider_native';

/**
 * - `manual`: `/compress` or the compact button.
 * - `pre_api`: the estimate was over the threshold before a request.
 * - `post_tool`: a tool result pushed the conversation over the threshold.
 * - `overflow`: the provider rejected the request as too long; the request is retried after.
 * - `gateway_hygiene`: a long stored session was resumed, compacted before its first new turn.
 * - `between_turns`: an idle-time pass after a turn.
 * - `proactive_prune`: pruning tool outputs reclaimed enough on its own.
 * - `provider`: the provider compacted on its own.
 * - `unknown`: none of the above: the session no longer fitted after its model changed.
 */
export type CompactionReason =
	| 'manual'
	| 'pre_api'
	| 'post_tool'
	| 'overflow'
	| 'gateway_hygiene'
	| 'between_turns'
	| 'proactive_prune'
	| 'provider'
	| 'unknown';

/**
 * - `delete`: the user deleted the session (one or many at once, or `/exit --delete`).
 * - `archive`: the session was archived; its rows still exist and it can be unarchived.
 * - `empty_sweep`: an ended session with no messages was swept away.
 * - `prune`: retention removed an old, ended, unpinned session.
 * - `ghost_prune`: maintenance removed an empty untitled session whose tab is long gone.
 * - `profile_repair`: a copy filed in the wrong profile was removed after being moved.
 */
export type DeletionReason = 'delete' | 'archive' | 'empty_sweep' | 'prune' | 'ghost_prune' | 'profile_repair';

// ---------------------------------------------------------------------------------------------
// Hook payloads (what a callback receives: one frozen object of snake_case fields)
// ---------------------------------------------------------------------------------------------

/** `on_session_start`: a session was created. */
export type SessionStartPayload = {
	session_id: string;
	/** The conversation thread; kept when `/new`, `/reset` or rotation replace the session. */
	session_key: string;
	platform: Platform;
	profile: string;
	model: string;
};

/** `on_session_end`: a session ended. */
export type SessionEndPayload = {
	session_id: string;
	session_key: string;
	/** Why it ended, e.g. `exit`, `new_session` (`/new`), `reset`, `compression` (rotation). */
	end_reason: string;
	platform: Platform;
};

/** `on_session_finalize`: last chance to flush. */
export type SessionFinalizePayload = {
	session_id: string;
	session_key: string;
	platform: Platform;
};

/** `on_session_reset`: `/new` or `/reset` replaced the session inside the same thread. */
export type SessionResetPayload = {
	/** The new session. */
	session_id: string;
	/** The session it replaced. */
	old_session_id: string;
	session_key: string;
};

/** `pre_llm_call`: once per user turn, before the first model request. */
export type PreLlmCallPayload = {
	session_id: string;
	session_key: string;
	/** The user's message as typed, without any injected context. */
	user_message: string;
	/** The active conversation before this message (after any compaction). */
	conversation_history: HistoryMessage[];
	is_first_turn: boolean;
	model: string;
	platform: Platform;
	profile: string;
};

/** `post_llm_call`: after the turn's final answer. */
export type PostLlmCallPayload = {
	session_id: string;
	user_message: string;
	assistant_response: string;
	model: string;
	/** null when the provider reported no usage. */
	usage: TokenUsage | null;
};

/** `pre_tool_call`: before a tool runs. */
export type PreToolCallPayload = {
	session_id: string;
	tool_name: string;
	args: Record<string, unknown>;
};

/** `post_tool_call`: after a tool ran. */
export type PostToolCallPayload = {
	session_id: string;
	tool_name: string;
	args: Record<string, unknown>;
	result: unknown;
	duration_ms: number;
};

/** `post_compaction`: once per effective compaction, after it was saved. */
export type PostCompactionPayload = {
	/** The session that continues (the new one when the session rotated). */
	session_id: string;
	/** `""` for an in-place compaction; the parent's id when the session rotated. */
	old_session_id: string;
	kind: CompactionKind;
	reason: CompactionReason;
	before_tokens: number;
	/** null when unknown. */
	after_tokens: number | null;
	/** null when unknown. */
	messages_removed: number | null;
	profile: string;
	platform: Platform;
};

/** `on_session_delete`: once per committed deletion or archive, after it was saved. */
export type SessionDeletePayload = {
	/** The operation's target; handlers use `deleted_ids ?? [session_id]`. */
	session_id: string;
	reason: DeletionReason;
	profile: string;
	/** Every removed session row, present when more than one went. */
	deleted_ids?: string[];
	/** Always null: a browser has no sessions directory (kept for Hermes parity). */
	sessions_dir: null;
};

// ---------------------------------------------------------------------------------------------
// Hook results
// ---------------------------------------------------------------------------------------------

/**
 * A `pre_llm_call` return: text appended to the outgoing copy of the user message (never the
 * system prompt, never stored). Return nothing to add nothing.
 */
export type InjectedContextResult = string | { context: string } | null | undefined | void;

/** A `pre_tool_call` return: `{ block: true, reason }` refuses the call, `{ args }` replaces its arguments. */
export type ToolCallDirective =
	| { block?: boolean; reason?: string; args?: Record<string, unknown> }
	| null
	| undefined
	| void;

// ---------------------------------------------------------------------------------------------
// The hook map
// ---------------------------------------------------------------------------------------------

/** observer: return ignored; collector: returns are gathered; directive: returns steer the app. */
export type HookKind = 'observer' | 'collector' | 'directive';

export interface HookSpec<K extends HookKind, P, R> {
	kind: K;
	payload: P;
	result: R;
}

/** Every hook, its kind, its payload and what a callback may return. */
export interface HookMap {
	on_session_start: HookSpec<'observer', SessionStartPayload, unknown>;
	on_session_end: HookSpec<'observer', SessionEndPayload, unknown>;
	on_session_finalize: HookSpec<'observer', SessionFinalizePayload, unknown>;
	on_session_reset: HookSpec<'observer', SessionResetPayload, unknown>;
	pre_llm_call: HookSpec<'collector', PreLlmCallPayload, InjectedContextResult>;
	post_llm_call: HookSpec<'observer', PostLlmCallPayload, unknown>;
	pre_tool_call: HookSpec<'directive', PreToolCallPayload, ToolCallDirective>;
	post_tool_call: HookSpec<'observer', PostToolCallPayload, unknown>;
	post_compaction: HookSpec<'observer', PostCompactionPayload, unknown>;
	on_session_delete: HookSpec<'observer', SessionDeletePayload, unknown>;
}

export type HookName = keyof HookMap;
export type HookPayload<N extends HookName> = HookMap[N]['payload'];
export type HookResult<N extends HookName> = HookMap[N]['result'];

/** Payloads are deep-frozen copies: a plugin cannot change app state through them. */
export type DeepReadonly<T> = T extends (infer U)[]
	? readonly DeepReadonly<U>[]
	: T extends object
		? { readonly [K in keyof T]: DeepReadonly<T[K]> }
		: T;

export type HookHandler<N extends HookName> = (
	payload: DeepReadonly<HookPayload<N>>
) => HookResult<N> | Promise<HookResult<N>>;

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/**
 * Who invoked a command. Identity, not authorization: it names the local profile's user, and
 * anything running in the page could have produced it.
 */
export interface CommandSource {
	platform: 'web';
	/** Stable per profile. */
	user_id: string;
	user_name: string;
	/** The session key of the conversation thread. */
	chat_id: string;
	/** The session id. */
	thread_id: string;
	profile: string;
}

export interface CommandContext {
	session_id: string;
	session_key: string;
	platform: Platform;
	/** null when no user invoked the command. */
	source: CommandSource | null;
}

/**
 * A returned string is shown in the transcript as command output (another value as JSON;
 * null or undefined shows nothing). It is never sent to the model. `raw_args` is trimmed.
 */
export type CommandHandler = (raw_args: string, context: CommandContext) => unknown;

export interface CommandOptions {
	/** One line, shown by `/help` and in the command menu. */
	description?: string;
	/** What to type after the command, e.g. `<query>`. */
	args_hint?: string;
}

// ---------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------

/** A JSON Schema object, such as `{ type: 'string', description: 'What to find' }`. */
export type JsonSchema = { [key: string]: unknown };

/**
 * The tool's arguments: an object schema. Each property is a schema object (`{ type: 'string' }`,
 * not `'string'`), and `required` names properties. Anything else is refused at registration.
 */
export interface ToolParameters {
	type: 'object';
	properties?: { [name: string]: JsonSchema };
	required?: string[];
	[key: string]: unknown;
}

export interface ToolContext {
	session_id: string;
}

export interface ToolDefinition {
	/** What the model calls the tool: 1–64 letters, digits, `_` or `-`; unique across plugins. */
	name: string;
	/** Tells the model when and how to use it. */
	description: string;
	/** Without it, the tool takes no arguments. */
	parameters?: ToolParameters;
	/**
	 * Returns a string or a JSON-serialisable value (sent as JSON text), given to the model as
	 * the tool result. Runs under the hook timeout; a throw reaches the model as a tool error.
	 */
	handler: (args: Record<string, unknown>, context: ToolContext) => unknown;
}

// ---------------------------------------------------------------------------------------------
// The plugin context and module
// ---------------------------------------------------------------------------------------------

/** An async key-value store private to the plugin, kept in IndexedDB for the profile. */
export interface PluginStorage {
	/** A copy of the stored value, or undefined. Keys are non-empty strings. */
	get<T = unknown>(key: string): Promise<T | undefined>;
	/** Stores a structured-cloneable value. */
	set(key: string, value: unknown): Promise<void>;
	delete(key: string): Promise<void>;
	/** Keys in this plugin's store, optionally only those starting with `prefix`. */
	keys(prefix?: string): Promise<string[]>;
}

/** Console output tagged `[plugin <id>]`. */
export interface PluginLog {
	info(...args: unknown[]): void;
	warn(...args: unknown[]): void;
	error(...args: unknown[]): void;
}

/** Every field is optional; each is a string of up to 300 characters. */
export interface PluginManifest {
	name?: string;
	version?: string;
	description?: string;
}

/** Undoes one registration. */
export type Unregister = () => void;

export interface PluginContext {
	/** From the URL's file name (`…/conventions.js` → `conventions`); unique per profile. */
	readonly plugin_id: string;
	/** The module's `manifest` export, frozen, or null. */
	readonly manifest: Readonly<PluginManifest> | null;
	/** Throws on an unknown hook name, listing the valid ones. */
	register_hook<N extends HookName>(name: N, callback: HookHandler<N>): Unregister;
	/**
	 * Adds `/name`. Names are lowercase `[a-z0-9][a-z0-9_-]*`, at most 40 characters; a name taken by a built-in
	 * (`help`, `new`, `reset`, `title`, `usage`, `compress`, `exit`, `archive`) or another
	 * plugin throws.
	 */
	register_command(name: string, handler: CommandHandler, options?: CommandOptions): Unregister;
	/**
	 * Offers a tool to the model; `pre_tool_call` may block it. Throws, naming the problem, for a
	 * bad name, a name another plugin took, a missing handler or malformed `parameters`.
	 */
	register_tool(tool: ToolDefinition): Unregister;
	readonly storage: PluginStorage;
	readonly log: PluginLog;
	/** True when that plugin is loaded and enabled. */
	has_plugin(id: string): boolean;
}

/** May be async: it is awaited under the hook timeout; a throw undoes what it registered. */
export type RegisterFunction = (ctx: PluginContext) => void | Promise<void>;

/** A plugin is one self-contained ES module exporting `register` (or a default object with it). */
export type PluginModule =
	| { manifest?: PluginManifest; register: RegisterFunction }
	| { manifest?: PluginManifest; default: { register: RegisterFunction } };
