// Payload and result shapes of every hook (DESIGN §4–§6). Fields are snake_case on purpose:
// plugin authors already know them from the Hermes plugin API. Payloads only ever grow.
// Type aliases, not interfaces, so each payload is assignable to Record<string, unknown>.
// Every type here is published to plugin authors in static/plugin-api.d.ts, doc comments
// included, by `npm run build:api`: write the doc comments for them.

/** Where the session runs; always `'web'` in Palimpsest. */
export type Platform = string;

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** One message of the conversation as the model will see it. */
export type HistoryMessage = {
	role: ChatRole;
	content: string;
	/** What the user attached to the message, when anything: never the bytes. */
	attachments?: HistoryAttachment[];
};

/** An image or file attached to a message, as a plugin sees it. */
export type HistoryAttachment = {
	type: 'image' | 'file';
	/** The file's name. */
	name: string;
	/** Bytes. */
	size: number;
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
 * - `prune_tool_results`: old tool outputs were replaced by one-line stubs (no model call), or
 *   the provider cleared them from its view (Anthropic's context editing, reason `provider`);
 *   also when the images of older turns stop being sent (a one-line note each instead; the
 *   transcript still shows them).
 * - `provider_native`: the provider compacted the conversation itself (OpenAI's Responses API,
 *   Anthropic, the offline model), on demand or on its own; its items are kept as it returned them.
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
 * - `provider`: the provider compacted on its own while answering.
 * - `unknown`: none of the above: the model changed, and the session no longer fitted its
 *   window or held a provider's compaction the new model cannot read.
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
	/** The name of the tool server (MCP) the tool comes from; absent for a plugin's or a built-in tool. */
	server?: string;
};

/** `post_tool_call`: after a tool ran. */
export type PostToolCallPayload = {
	session_id: string;
	tool_name: string;
	args: Record<string, unknown>;
	result: unknown;
	duration_ms: number;
	/** The name of the tool server (MCP) the tool comes from; absent for a plugin's or a built-in tool. */
	server?: string;
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
	/**
	 * The fact check of the summary: how many facts of the compacted messages (file paths, URLs,
	 * code identifiers, numbers with their unit or role, e-mail addresses, names, the user's
	 * instructions) were found in them; null where no summary was checked (pruning, a summary
	 * only the provider can read).
	 */
	facts_total: number | null;
	/** Of those, how many the summary holds (facts the app added to it included); null where no summary was checked. */
	facts_kept: number | null;
	/** The facts the summary does not hold, each as it was written, message by message: at most 50. */
	facts_lost: string[];
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

/**
 * A `pre_llm_call` return: text appended to the outgoing copy of the user message (never the
 * system prompt, never stored). Return nothing to add nothing.
 */
// `void` lets a handler that only sometimes injects simply not return.
export type InjectedContextResult = string | { context: string } | null | undefined | void;

/**
 * A `pre_tool_call` return: `{ block: true, reason }` refuses the call, `{ args }` replaces its
 * arguments. Arguments that differ from the model's are shown in the transcript and told to the
 * model, naming the plugin; a tool server's tool asks the user again before it runs with them,
 * even when always allowed.
 */
export type ToolCallDirective =
	| { block?: boolean; reason?: string; args?: Record<string, unknown> }
	| null
	| undefined
	| void;
