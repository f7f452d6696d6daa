// A message's row: what was said, how it stands in the context (active, compacted, kept), and
// what came with it (tool calls, attachments, the recipe of its request).
import type { NativeCompaction, ToolCall, Role, Usage } from '../../providers/types';
import type { Attachment, BlobNotSynced } from './attachment';
import type { CompactionMarker } from './compaction-marker';
import type { InjectedContext } from './injected-context';
import type { SentRequest } from './sent-request';
import type { BranchTag } from './session-row';
import type { RanWith, StoredToolResult } from './tool-result';

export type MessageStatus = 'complete' | 'streaming' | 'aborted' | 'error' | 'incomplete';
export type MessageKind = 'message' | 'summary' | 'command' | 'notice';

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
