// Payload and result shapes of every hook (DESIGN §4–§6). Fields are snake_case on purpose:
// plugin authors already know them from the Hermes plugin API. Payloads only ever grow.
// Type aliases, not interfaces, so each payload is assignable to Record<string, unknown>.

/** Where the session runs; always `'web'` in this app. */
export type Platform = string;

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

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

export type CompactionKind = 'summarize' | 'micro_summarize' | 'prune_tool_results' | 'provider_native';

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

export type DeletionReason = 'delete' | 'archive' | 'empty_sweep' | 'prune' | 'ghost_prune' | 'profile_repair';

export type SessionStartPayload = {
	session_id: string;
	session_key: string;
	platform: Platform;
	profile: string;
	model: string;
};

export type SessionEndPayload = {
	session_id: string;
	session_key: string;
	/** Why it ended, e.g. `exit`, `new_session`, `reset`, `compression`. */
	end_reason: string;
	platform: Platform;
};

export type SessionFinalizePayload = {
	session_id: string;
	session_key: string;
	platform: Platform;
};

export type SessionResetPayload = {
	session_id: string;
	old_session_id: string;
	session_key: string;
};

export type PreLlmCallPayload = {
	session_id: string;
	session_key: string;
	user_message: string;
	conversation_history: HistoryMessage[];
	is_first_turn: boolean;
	model: string;
	platform: Platform;
	profile: string;
};

export type PostLlmCallPayload = {
	session_id: string;
	user_message: string;
	assistant_response: string;
	model: string;
	usage: TokenUsage | null;
};

export type PreToolCallPayload = {
	session_id: string;
	tool_name: string;
	args: Record<string, unknown>;
};

export type PostToolCallPayload = {
	session_id: string;
	tool_name: string;
	args: Record<string, unknown>;
	result: unknown;
	duration_ms: number;
};

export type PostCompactionPayload = {
	session_id: string;
	/** `""` for an in-place compaction; the parent's id when the session rotated. */
	old_session_id: string;
	kind: CompactionKind;
	reason: CompactionReason;
	before_tokens: number;
	after_tokens: number | null;
	messages_removed: number | null;
	profile: string;
	platform: Platform;
};

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

/** A `pre_llm_call` return: text appended to the outgoing copy of the user message. */
// `void` lets a handler that only sometimes injects simply not return.
export type InjectedContextResult = string | { context: string } | null | undefined | void;

/** A `pre_tool_call` return: block the call, or replace its arguments. */
export type ToolCallDirective =
	| { block?: boolean; reason?: string; args?: Record<string, unknown> }
	| null
	| undefined
	| void;
