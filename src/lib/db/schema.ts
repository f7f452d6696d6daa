// Row shapes of a profile database. Field names are snake_case because rows cross the plugin
// boundary as payload data and are exported as JSON.
import type { ImageRef, KeptPart } from '../tool-servers/types';
import type { NativeCompaction, ReasoningEffort, ToolCall, Role, Usage } from '../providers/types';
import type { CompactionKind, CompactionReason, SessionDeletePayload, PostCompactionPayload } from '../hooks/hook-payloads';
import type { HookLogEntry } from '../hooks/run-hook';
import type { FactClass } from '../context/extract-facts';

export type MessageStatus = 'complete' | 'streaming' | 'aborted' | 'error' | 'incomplete';
export type MessageKind = 'message' | 'summary' | 'command' | 'notice';
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
 * One chat's own settings. Each field left out means "as Settings says" (or the provider's
 * default, for what Settings does not set); see sessions/chat-settings.ts for their bounds.
 */
export interface ChatSettings {
	/** Sent instead of the system prompt of Settings. */
	system_prompt?: string;
	temperature?: number;
	top_p?: number;
	/** The most tokens an answer may take. */
	max_tokens?: number;
	reasoning_effort?: ReasoningEffort;
	/** 'off': this chat never compacts on its own (it asks when full); a number: the percent of the window it compacts at. */
	compaction?: 'off' | number;
	/** Tool servers this chat leaves out, by address. */
	tool_servers_off?: string[];
	/** Plugin tools this chat does not offer the model, by name. */
	plugin_tools_off?: string[];
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

export interface InjectedContext {
	plugin_id: string;
	plugin_name: string;
	text: string;
	/** Set when the plugin's text was cut to its budget: how many characters it returned. */
	cut_from?: number;
}

/**
 * What one compaction did, kept on the row that marks its place in the transcript (the summary,
 * or a notice where tool outputs were pruned). `id` is the `compacted_by` of the rows it removed.
 */
export interface CompactionMarker {
	id: string;
	kind: CompactionKind;
	reason: CompactionReason;
	before_tokens: number;
	after_tokens: number | null;
	messages_removed: number | null;
	/**
	 * How many of the user's messages the context holds only through this compaction's summary
	 * (those of an earlier summary it replaced included). Absent on compactions from before it was kept.
	 */
	user_messages_folded?: number;
	/** Set in a rotated session: the parent whose rows this summary replaces. */
	old_session_id?: string;
	at: number;
	/**
	 * Set when the user undid it: its rows are back in the context and its summary is kept
	 * where it was as a note (kind 'notice'), no longer sent (see db/undo-compaction-verbs.ts).
	 */
	undone_at?: number;
	/** Set when the user edited the summary: the edited row carries the marker now, the original stays (inactive). */
	edited_at?: number;
	/** The fact check of its summary; absent where no summary can be read (pruning, an opaque one) and on compactions from before it. */
	facts?: MarkerFacts;
}

/** How many lost facts a marker lists; the count covers them all. */
export const MAX_LISTED_FACTS = 100;

/**
 * A summary's fact check: of the facts in the rows it replaced (paths, URLs, identifiers,
 * numbers, e-mail addresses, names, the user's instructions), how many it held as written, and
 * those it did not, each with the row it came from.
 */
export interface MarkerFacts {
	total: number;
	/** Held by the summary as its writer wrote it. */
	kept: number;
	/** Every fact it did not hold. */
	lost_count: number;
	/** The first MAX_LISTED_FACTS of them, message by message; `added` once appended to the summary. */
	lost: LostFactEntry[];
	/** Set when the user added them with "Add lost facts to summary" (an edit of the summary). */
	added_at?: number;
}

export interface LostFactEntry {
	class: FactClass;
	text: string;
	/** The compacted row it was said in. */
	seq: number;
	added?: true;
}

export interface MessageRow {
	session_id: string;
	/**
	 * Position in the session. Appends use whole numbers (the session's next_seq). A row that
	 * compaction inserts (a summary, a pruned-output stub, a compaction notice) takes a
	 * fractional seq halfway between its neighbours, so it sits exactly where the rows it
	 * replaces were, under the same [session_id+seq] key order, with no renumbering of the
	 * rows around it (see db/compaction-verbs.ts).
	 */
	seq: number;
	/**
	 * Where the row sits on every device (a hybrid-clock ULID, see sync/position.ts): after every
	 * position the session held when it was written. Rows a compaction adds take a fresh one too
	 * (a summary syncs as a new document listing the positions it covers), so positions order
	 * a session's rows as written, and seq as shown here.
	 */
	position: string;
	/**
	 * What the session's rows sort by on every device (see rank.ts): the position of an appended
	 * row; for a row placed among others, an order key between its neighbours' and its position.
	 * seq follows it. (Absent only on rows of tests written straight to the table.)
	 */
	rank?: string;
	/** The version (of the place it follows) this row belongs to, where the conversation has versions. */
	branch?: BranchTag;
	/**
	 * Set when the row left the context for good, by the compaction id that undoing retired it
	 * with (a pruned-output stub of an undone compaction), or 'inactive' for a row that was
	 * inactive for no other recorded reason before this was kept.
	 */
	retired_by?: string;
	id: string;
	role: Role;
	content: string;
	status: MessageStatus;
	kind: MessageKind;
	/** 1 while part of the live context; compaction sets 0 and keeps the row readable. */
	active: 0 | 1;
	/**
	 * True while the user keeps this message in context ("Keep in context", on a user's message
	 * or an answer): compaction leaves it, and an answer's tool results, as they are, and puts its
	 * summary before it. Absent when not kept. Exported, imported and synced with the message.
	 */
	pinned?: boolean;
	compacted_by: string | null;
	created_at: number;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	/** On a tool server's result: what the transcript shows of it (the model was sent `content`). */
	tool_result?: StoredToolResult;
	/** On a tool's result when plugins changed the arguments the model chose: what the tool ran with. */
	ran_with?: RanWith;
	tokens?: number;
	encoding?: string;
	error?: string;
	/** Plugin context appended to the outgoing copy of this user message (never to content). */
	injected?: InjectedContext[];
	/** On the row that marks a compaction in the transcript. */
	compaction?: CompactionMarker;
	/**
	 * On a summary the provider wrote itself: its items exactly as received, sent back unchanged
	 * to the same provider and model family (exported with the session, never shown raw).
	 */
	native?: NativeCompaction;
	model?: string;
	provider?: string;
	/** How fast the model generated this answer, when it said (the in-browser model does). Not indexed. */
	tokens_per_second?: number;
	/**
	 * Set on the rows of a version not on show (they are inactive meanwhile): the place it
	 * belongs to and its number there. Derived from `branch` (see conversation.ts).
	 */
	shelved?: { after: number | null; version: number };
	/** On an answer: how to rebuild the request it answered (see agent/request-recipe.ts). */
	sent?: SentRequest;
	/** On an answer: the tokens the provider reported for it, when it reported any. */
	usage?: Usage;
	/** On a user's message: the images and files attached to it (their bytes are rows of `blobs`). */
	attachments?: Attachment[];
	/**
	 * Set on the copy of a row that compaction made to stop sending its images (attached, or a
	 * tool result's): requests carry a one-line note for each instead, while the transcript still
	 * shows them from their Blobs. The original row stays, inactive, so undoing brings them back.
	 */
	images_pruned?: true;
	/** On a message that arrived by sync: the Blobs it refers to that did not come with it, and why. */
	blobs_not_synced?: BlobNotSynced[];
}

/**
 * A Blob a synced message refers to that is not on this device: larger than the limit for
 * synced attachments on the device that sent it (`limit` there) or on this one (`limit` here),
 * refused as not what its message says, or still on its way.
 */
export interface BlobNotSynced {
	id: string;
	/** Bytes. */
	size: number;
	reason: 'sender-limit' | 'own-limit' | 'refused' | 'arriving';
	/** Bytes: the limit that kept it back (for the two limits). */
	limit?: number;
}

/** An image attached to a user's message: shown as a thumbnail, sent in each wire format's image part. */
export interface ImageAttachment {
	type: 'image';
	/** Its bytes: the `blobs` row of the same session under this id. */
	id: string;
	/** The file's name, as the user's system gave it. */
	name: string;
	mimeType: string;
	/** Bytes, as stored. */
	size: number;
	width: number;
	height: number;
}

/**
 * A text file or PDF attached to a user's message: a text file is sent as a text part headed by
 * its name; a PDF as a document to providers that read PDFs, and as its text to the others.
 */
export interface FileAttachment {
	type: 'file';
	id: string;
	name: string;
	mimeType: string;
	size: number;
	/** A PDF's pages. */
	pages?: number;
	/**
	 * A PDF's text, read once when it was attached. Kept here, as text and never as bytes, so a
	 * request to a provider that cannot read PDFs needs neither PDF.js nor the worker, and
	 * export, import and sync carry it with the message.
	 */
	text?: string;
}

export type Attachment = ImageAttachment | FileAttachment;

/**
 * The recipe of one request, kept on its answer instead of the request itself (a session may
 * have thousands of answers): the rows it carried, its plugin context and parameters, and the
 * key of its frame (where it went, the system prompt and the tools), which is stored once.
 */
export interface SentRequest {
	/** Settings key of the frame (REQUEST_FRAME_PREFIX + a hash of its content). */
	frame: string;
	/** The context rows it carried: runs [first seq, count] of whole seqs, or [seq] alone. */
	seqs: number[][];
	/** The user message whose outgoing copy carried the plugin context. */
	user_seq: number;
	/** Its plugin context, kept here only once a later request of the turn replaced the message's. */
	injected?: InjectedContext[];
	provider: string;
	model: string;
	context_management?: { compactAt: number };
	/** A hash of the body as sent, so a rebuild can say whether it still matches. */
	body_hash: string;
}

/**
 * What a deletion or archive operation did, written in the same transaction as its rows, so an
 * exact retry of the same operation id returns this instead of acting (and notifying) again.
 */
export interface ReceiptRow {
	op_id: string;
	reason: string;
	session_id: string;
	/** Every session row the operation removed or archived. */
	session_ids: string[];
	/** Children whose parent link the operation cleared (branches of a deleted session). */
	detached_ids: string[];
	at: number;
	/**
	 * The hook this commit owes plugins, written in its transaction and cleared once dispatched:
	 * left by a tab that closed in between, it fires at the next start-up (see replay-unfired-hooks.ts).
	 */
	unfired?: UnfiredHook;
}

/** A hook owed by a commit of tab `tab` (see ReceiptRow.unfired). */
export type UnfiredHook = { tab: string } & ({ hook: 'on_session_delete'; payload: SessionDeletePayload } | { hook: 'post_compaction'; payload: PostCompactionPayload });

/**
 * A saved prompt (the Prompts page; `/<name>` in the Message box). Its id is random, so a synced
 * document's id says nothing of it; `name` is unique among the profile's prompts as far as this
 * device wrote them (two devices may each save one of a name: the earlier one answers to it).
 */
export interface PromptRow {
	id: string;
	name: string;
	text: string;
	created_at: number;
	updated_at: number;
}

/** A prompt's name has at most this many characters, its text at most MAX_PROMPT_TEXT_CHARS; a profile holds at most MAX_PROMPTS. */
export const MAX_PROMPT_NAME_CHARS = 64;
export const MAX_PROMPT_TEXT_CHARS = 100_000;
export const MAX_PROMPTS = 1_000;

/**
 * An assistant (the Assistants page): a name, the model and the chat settings a chat started
 * from it takes, and starter prompts its empty chat offers. Its id is random; names need not
 * be unique.
 */
export interface AssistantRow {
	id: string;
	name: string;
	/** The provider and model its chats use; both '' for the model new chats use. */
	provider: string;
	model: string;
	/** What its chats ask of the model (system prompt, sampling, tools, compaction): copied into each chat. */
	chat_settings?: ChatSettings;
	/** Offered as buttons on the empty chat; one clicked is sent. */
	starters: string[];
	created_at: number;
	updated_at: number;
}

/** The bounds of an assistant: its name, its starter prompts, and how many a profile keeps. */
export const ASSISTANT_LIMITS = {
	nameChars: 100,
	/** Characters of its provider id or model name. */
	modelChars: 200,
	starters: 8,
	starterChars: 1_000,
	assistants: 500
} as const;

export interface SettingRow {
	key: string;
	value: unknown;
}

/** A part of a tool server's result as a message row keeps it: an image by reference to its bytes (never text in the row). */
export type StoredResultPart = KeptPart;
export type { ImageRef };

/** The bytes of an image or file a message of the session shows (see ImageRef, Attachment), deleted with the session. */
export interface BlobRow {
	session_id: string;
	id: string;
	type: string;
	data: Blob;
}

/**
 * The arguments a tool ran with when plugins' `pre_tool_call` changed the ones the model chose
 * (those stay in the answer's `tool_calls`). The model is told too, in the result's `content`.
 */
export interface RanWith {
	/** As JSON. */
	arguments: string;
	/** The plugins that changed them, by the names they had then, in the order they ran. */
	changed_by: string[];
}

/** What the transcript shows of a tool server's result, read and bounded when it came. */
export interface StoredToolResult {
	/** The tool server's name, as it names itself. */
	server: string;
	is_error: boolean;
	parts: StoredResultPart[];
}

export interface PluginRow {
	id: string;
	url: string;
	position: number;
	enabled: 0 | 1;
	/** Optional sha256 (hex) the code must match. */
	pinned_sha256: string | null;
	/** The code that last loaded, so the plugin works offline. */
	cached_source: string | null;
	cached_sha256: string | null;
	manifest: { name?: string; version?: string; description?: string } | null;
	last_error: string | null;
	added_at: number;
	/** Before version 8: what `plugin_usage` now keeps (read only by the upgrade). */
	storage_bytes?: number;
}

/**
 * About how many bytes a plugin's `ctx.storage` holds (no row until its first write since it
 * was counted). Kept apart from the plugin's row, which the page follows: a plugin writing often
 * then never makes the page read every plugin's row (and its code) again.
 */
export interface PluginUsageRow {
	plugin_id: string;
	storage_bytes: number;
}

export interface PluginKvRow {
	plugin_id: string;
	key: string;
	value: unknown;
	/** About how many bytes the key and value take (absent on rows written before it was counted). */
	bytes?: number;
}

/** One `ctx.log` line of a plugin, kept across reloads (the newest PLUGIN_LOG_LIMIT per plugin). */
export interface PluginLogRow {
	id?: number;
	plugin_id: string;
	at: number;
	level: 'info' | 'warn' | 'error';
	text: string;
}

/** A hook log entry as stored: the call's details stay in the memory of the tab that made it. */
export type HookLogRow = Omit<HookLogEntry, 'detail'>;

/** The search index of a profile as one snapshot (see search/message-index.ts). */
export interface SearchIndexRow {
	key: string;
	/** MessageIndex.serialize(): the index and, per session, what it was indexed from. */
	data: string;
	at: number;
}

/**
 * What sync knows of one CouchDB document (`id`: `session:<id>`, `msg:<session>:<position>`,
 * `blob:<session>:<id>` or `prompt:<id>`): the server revision merged here, whether this device
 * has something to send (`dirty`, from local edit number `edit`), and what the row does not hold
 * (see sync/).
 */
export interface SyncDocRow {
	id: string;
	kind: 'session' | 'message' | 'blob' | 'prompt' | 'assistant';
	/** '' for a prompt's or an assistant's document: it belongs to no session. */
	session_id: string;
	position?: string;
	rev: string | null;
	edit: number;
	dirty: 0 | 1;
	/** Refused by the server at `edit`: not offered again until edited. */
	refused: 0 | 1;
	/** A session's or a prompt's document as last merged here; a message's while no row holds it (held, removed). */
	doc?: unknown;
	/** A message's field clocks as last stamped or merged (its row holds the values). */
	clocks?: unknown;
	/** Digests of a message's synced fields as last stamped or merged: a field whose digest moved was edited here. */
	sums?: Record<string, string>;
	/** A message document whose row is not here (its session unknown, deleted or removed here): kept to apply later. */
	held?: 1;
	/** A session removed here by this device's own rule (a sweep): nothing of it is sent, and a change from elsewhere brings it back. */
	dropped?: 1;
	/** When this device learned that the session was deleted (its "Recently deleted" runs from then). */
	deleted_seen?: number;
	/** The session's documents must be read from the server again (it came back, and its rows are not here). */
	refetch?: 1;
	/** Deleted elsewhere while a tab here worked on it: it moves to "Recently deleted" once that work is done. */
	trash_later?: 1;
	/** Written before the document format this app writes: its knowledge is only the revision (and a session's old document). */
	legacy?: 1;
	/** Revisions that lost a conflict to the one merged here: to delete on the server. */
	losers?: string[];
	/** A purged session's message or Blob: its revision is to be deleted on the server, then the entry goes. */
	purge?: 1;
}

/** A local change not yet taken into sync's documents, by document id (or `scan:<session>` for rows removed). */
export interface SyncOutboxRow {
	id: string;
	/** When the change was made (ms since the epoch): its clock's time. */
	at: number;
	/** On `deleted:<session>`: the user deleted the session (a sweep's removal writes none). */
	intent?: 'delete';
	/** Drawn afresh at each write (from this version on): an entry read twice with the same one was not written in between. */
	write?: number;
}

/** A session deleted on another device (or on the server), kept here to restore for a while. */
export interface SyncTrashRow {
	session_id: string;
	/** When this device learned of the deletion. */
	at: number;
	session: SessionRow;
	messages: MessageRow[];
	blobs: BlobRow[];
}
