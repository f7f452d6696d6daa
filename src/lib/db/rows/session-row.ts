// A session's row: its title and thread, its model and provider, its counts, and what it keeps
// of compaction, versions, its own chat settings and the assistant it started from.
import type { Usage } from '../../providers/types';
import type { ChatSettings } from './chat-settings';

export type ParentKind = 'compression' | 'branch' | 'delegate';

/** A session's compaction bookkeeping: failures grow a cooldown, micro-compaction counts turns. */
export interface CompactionState {
	/** Failed or cancelled summaries in a row; reset by a compaction that lands. */
	failures: number;
	/** No automatic compaction before this time (ms since the epoch). */
	cooldown_until: number;
	/** Completed turns since the last micro-compaction. */
	turns_since_micro: number;
}

export const NO_COMPACTION_STATE: CompactionState = Object.freeze({ failures: 0, cooldown_until: 0, turns_since_micro: 0 });

/** The model that wrote a session's title, and what the request cost (see SessionRow.titled_by). */
export interface TitledBy {
	model: string;
	usage?: Usage;
}

/** What a session's provider was called, and where it was (see SessionRow.named_provider). */
export interface NamedProvider {
	id: string;
	name: string;
	base_url?: string;
	preset?: string;
}

export interface SessionRow {
	id: string;
	/** The profile whose database owns this row (profile repair moves rows filed elsewhere). */
	profile: string;
	title: string;
	/**
	 * 'auto': no title yet (the first user message will give one); 'message': titled by the app,
	 * from the first user message or by the model after the first answer (see `titled_by`);
	 * 'user': set by the user, and never written over.
	 */
	title_source: 'auto' | 'message' | 'user';
	session_key: string;
	created_at: number;
	last_activity_at: number;
	ended_at: number | null;
	end_reason: string | null;
	parent_session_id: string | null;
	parent_kind: ParentKind | null;
	archived: 0 | 1;
	pinned: 0 | 1;
	provider: string;
	model: string;
	/**
	 * What the user called the session's provider when it was last chosen or used here, so a
	 * session whose provider is not set up (removed, or the session came from another browser)
	 * can still name it, and say which server it was at (`base_url`, '' for one that runs in the
	 * browser) and of which kind (`preset`), to offer adding one like it. It holds only while `id`
	 * is still `provider`. Not indexed.
	 */
	named_provider?: NamedProvider;
	message_count: number;
	token_estimate: number;
	/** The next free message seq, so appends need no read of the messages table. */
	next_seq: number;
	/**
	 * Set when a model wrote the title after the first answer (a request of its own, not a turn):
	 * which model, and the tokens its provider said the request took. This device's own: not synced.
	 */
	titled_by?: TitledBy;
	compaction: CompactionState;
	/**
	 * Provider-reported input tokens over this app's own count of the same request, so later
	 * estimates follow the provider's tokenizer (absent until a provider reported usage).
	 * Always within TOKEN_RATIO_LIMITS.
	 */
	token_ratio?: number;
	/**
	 * The import that brought this session in (one id per imported file), inherited by the
	 * sessions that continue it; absent for sessions created in this profile. A deletion or
	 * archive follows links only between sessions of the same origin. (Not indexed, so no new
	 * schema version: a row without it counts as made here.)
	 */
	import_id?: string;
	/**
	 * The places where the conversation has more than one version (an edited message, a
	 * regenerated answer): which version is shown there, and how many there are. Not indexed.
	 * Derived from the rows' `branch` and `version_shown` (see conversation.ts), never set apart.
	 */
	versions?: VersionPoint[];
	/**
	 * Which version is on show at each place with versions, by the place's key (the position of
	 * the row the versions follow; '' for the very start): the id of that version. Synced.
	 */
	version_shown?: Record<string, string>;
	/** The branch a row appended now belongs to (derived with `versions`; none without versions). */
	tip?: BranchTag;
	/**
	 * What this chat asks of the model beside Settings (Chat settings); absent: the defaults.
	 * Exported, imported and synced with the session. Not indexed.
	 */
	chat_settings?: ChatSettings;
	/**
	 * The assistant this chat was started from, and its name then (the chat header shows it); the
	 * assistant's model and settings were copied into the chat when it began. Not indexed.
	 */
	assistant?: AssistantRef;
}

/** Which assistant a chat was started from (see SessionRow.assistant). */
export interface AssistantRef {
	id: string;
	name: string;
}

/**
 * Which version of which place a row belongs to: `at` is the position of the row the versions
 * follow (null: the very start), `id` the version's id (ids sort in the order the versions were
 * made; see conversation.ts).
 */
export interface BranchTag {
	at: string | null;
	id: string;
}

/** A place in a conversation with versions: after the row with seq `after` (null: the very start). */
export interface VersionPoint {
	after: number | null;
	/** The version on show, from 1. */
	shown: number;
	count: number;
}

/** How far a provider's count may differ from this app's before it is taken as a glitch. */
export const TOKEN_RATIO_LIMITS = [0.5, 2] as const;
