// What the replication engine needs from this device's storage. The engine sends what the store
// says is pending, and hands back what arrived (each document already read as hostile input and
// merged with its conflicting revisions); the store alone decides how a document meets its rows.
import type { ReadDocument } from './read-document';
import type { MessageDoc } from './message-document';
import type { SessionDoc } from './session-document';
import type { PromptDoc } from './prompt-document';
import type { AssistantDoc } from './assistant-document';

/** A document to send, at the edit of this device it was read at (`markPushed` tells later edits apart). */
export type PendingDoc =
	| { kind: 'session'; id: string; edit: number; rev: string | null; doc: SessionDoc }
	| { kind: 'message'; id: string; edit: number; rev: string | null; doc: MessageDoc }
	| { kind: 'prompt'; id: string; edit: number; rev: string | null; doc: PromptDoc }
	| { kind: 'assistant'; id: string; edit: number; rev: string | null; doc: AssistantDoc }
	/** The bytes of a Blob, sent as attachment `data` of its own document (read with `readBlob`). */
	| { kind: 'blob'; id: string; edit: number; rev: null; session_id: string; blob_id: string; size: number }
	/** A revision to delete on the server: a purged session's message or Blob, or a branch that lost a conflict. */
	| { kind: 'delete'; id: string; edit: number; rev: string };

/** Where a pass has read pending documents to: the last edit read, and the last change of the outbox taken in. */
export interface PendingCursor {
	edit: number | null;
	outbox: string | null;
}

export interface PendingPage {
	docs: PendingDoc[];
	after: PendingCursor;
}

/** A document that merges: a session's, a message's, a prompt's or an assistant's. */
export type MergeableDoc = Extract<PendingDoc, { kind: 'session' | 'message' | 'prompt' | 'assistant' }>;

/** What the server made of one pending document. */
export type PushResult =
	/**
	 * Stored as revision `rev` (null: already there, as a Blob is). `merged`: what the server now
	 * holds where the write met another revision (this device's merged with it), for the store to
	 * take in too. `removed`: the revision deleted (a losing branch, a purged document's).
	 */
	| { kind: 'pushed'; id: string; edit: number; rev: string | null; merged?: SessionDoc | MessageDoc | PromptDoc | AssistantDoc; removed?: string }
	/** Refused for good (forbidden, too large, unreadable server copy): left unsent until edited again. */
	| { kind: 'refused'; id: string; edit: number; reason: string };

/** A document that arrived: read, and merged with the conflicting revisions it had (`losers`, to delete). */
export type PulledDoc = Exclude<ReadDocument, { kind: 'refused' }> & {
	/** Revisions that lost a conflict to this one: merged into it, and to be deleted on the server. */
	losers?: string[];
	/** A blob document's bytes, fetched (within this device's limit; not yet checked against their type). */
	received?: Blob;
	/** A format-1 message's Blobs, fetched from its own document. */
	legacyBlobs?: Array<{ id: string; type: string; data: Blob }>;
};

/** Which database this device's sync state belongs to (see SyncStore.replication). */
export interface Replication {
	url: string;
	/** Written in the server database's `_local` document for this device: another database, or this one recreated, lacks it. */
	id: string;
}

/** More sessions than a pull may take to "Recently deleted" without asking. */
export class DeletionsToConfirm extends Error {
	constructor(readonly sessionIds: readonly string[]) {
		super(`${sessionIds.length} sessions were deleted elsewhere.`);
		this.name = 'DeletionsToConfirm';
	}
}

export interface ApplyOptions {
	/** How many sessions this pull may move to "Recently deleted" before it asks (DeletionsToConfirm). */
	allowDeletions?: number;
	/** Sessions the user agreed to move to "Recently deleted": they are not asked about again. */
	approved?: ReadonlySet<string>;
	/** Sessions the user chose to keep: their deletion from elsewhere is undone (on every device). */
	keep?: ReadonlySet<string>;
}

export interface SyncStore {
	/** This device's id, to name its `_local` document on the server. */
	deviceId(): Promise<string>;
	/** The database this device's sync state belongs to, or null before the first sync. */
	replication(): Promise<Replication | null>;
	/**
	 * Ties this device's sync state to another database (or this one recreated): its checkpoint is
	 * forgotten and everything is sent again, merging with whatever that database holds.
	 */
	startReplication(replication: Replication): Promise<void>;
	/** About how many documents are pending (to show progress against; none means nothing to send). */
	pendingCount(): Promise<number>;
	/**
	 * Pending documents after `after` (from the start without it), oldest edit first, about
	 * `limitBytes` of their bodies' worth (at least one while any is pending); this device's
	 * latest changes are taken in as the batch needs them. The page's `after` is where the next
	 * read goes on from, so a pass reads each edit once while the batches before it are still
	 * being sent.
	 */
	pending(limitBytes: number, after?: PendingCursor): Promise<PendingPage>;
	/** Records what the server did with documents from `pending`. */
	markPushed(results: readonly PushResult[]): Promise<void>;
	/**
	 * Applies documents that arrived, then records `checkpoint` (the feed's `last_seq` after them;
	 * null for documents read apart from the feed). The rows, what sync knows and the checkpoint
	 * are written in ONE transaction, so a crash keeps all or none, and no change is skipped.
	 */
	applyPulled(docs: readonly PulledDoc[], checkpoint: string | null, options?: ApplyOptions): Promise<{ deleted: number }>;
	/** The last checkpoint `applyPulled` recorded, or null before the first pull. */
	checkpoint(): Promise<string | null>;
	/** Sessions whose documents must be read from the server again (they came back, and their rows are not here). */
	sessionsToRead(): Promise<string[]>;
	/** A session's documents were read again (see `sessionsToRead`). */
	sessionRead(sessionId: string): Promise<void>;
	/** The bytes of Blob `blobId` of a session, to send (undefined: gone). */
	readBlob(sessionId: string, blobId: string): Promise<Blob | undefined>;
	/** Of the blob documents (and format-1 attachments) that arrived, the ones to fetch: within this device's limit and not here already. */
	wantedBlobs(docs: readonly PulledDoc[]): Promise<boolean[]>;
	/** Housekeeping once a pass: sessions deleted longer ago than "Recently deleted" keeps them are deleted for good. */
	maintain?(): Promise<void>;
	/** Of `ids` (session and message document ids), whether this device holds each at `revs` already (it wrote that revision, or applied it). */
	knownRevisions?(ids: readonly string[], revs: readonly string[]): Promise<boolean[]>;
}
