// What the replication engine needs from this device's storage, whatever holds it (Dexie in the
// app, memory in tests). The engine reads what changed, sends it, and hands back what arrived;
// the store alone decides how a pulled document meets its rows.
import type { BlobEntry, MessageDoc } from './message-document';
import type { SessionDoc } from './session-document';

/**
 * A local document not yet on the server. `rev` is the server revision whose contents this
 * device has already merged into its own (none: never seen on the server); `edit` is the local
 * edit it was read at, so `markPushed` can tell whether a later edit must still be sent.
 */
export type PendingDoc =
	| { kind: 'session'; id: string; edit: number; rev: string | null; doc: SessionDoc }
	/** Message documents never change once written: a new one has no revision. */
	| { kind: 'message'; id: string; edit: number; rev: null; doc: MessageDoc }
	/** A message of a deleted session, to delete on the server (CouchDB's `_deleted`, for messages only). */
	| { kind: 'message-removed'; id: string; edit: number; rev: string | null; session_id: string; position: string }
	/**
	 * A deleted session's document past its retention period, deleted on the server with CouchDB's
	 * `_deleted`: every device has had that long to learn of the deletion, so no edit is left to
	 * resurrect it.
	 */
	| { kind: 'session-purged'; id: string; edit: number; rev: string | null };

/** What the server made of one pending document. */
export type PushResult =
	/**
	 * Stored as revision `rev` (null when a message was already there). For a session whose write
	 * met another device's revision, `merged` is what the server now holds (this device's merged
	 * with it): the store merges it into its own document, so no later push can overwrite it.
	 */
	| { kind: 'pushed'; id: string; edit: number; rev: string | null; merged?: SessionDoc }
	/** Refused for good (forbidden, too large, unreadable server copy): left unsent until edited again. */
	| { kind: 'refused'; id: string; edit: number; reason: string };

/** The bytes of a Blob that came as an attachment of its message's document (not yet checked against its message). */
export interface ReceivedBlob {
	id: string;
	type: string;
	data: Blob;
}

/** A document that arrived from the server, already read as hostile input (see read-document.ts). */
export type PulledDoc =
	| { kind: 'session'; rev: string; doc: SessionDoc }
	/**
	 * `attached`: the ids of its `blobs` the server holds as attachments; `received`: those
	 * fetched (within this device's limit), to write with the message.
	 */
	| { kind: 'message'; rev: string; doc: MessageDoc; attached?: string[]; received?: ReceivedBlob[] }
	| { kind: 'message-removed'; rev: string; session_id: string; position: string }
	/** A deleted session whose record another device purged after the retention period. */
	| { kind: 'session-purged'; rev: string; session_id: string };

export interface SyncStore {
	/**
	 * Pending documents, oldest edit first, about `limitBytes` of their bodies' worth (at least
	 * one while any is pending). A document refused by the server is left out until edited again.
	 */
	pending(limitBytes: number): Promise<PendingDoc[]>;
	/**
	 * How many documents are pending: the "of 2,000" of the progress. Every push asks this first:
	 * a store that finds edits by looking for them (the Dexie store) looks here, once a push.
	 */
	pendingCount(): Promise<number>;
	/**
	 * Records what the server did with documents from `pending`. A document edited again since
	 * (its `edit` moved on) stays pending, with the new revision to replace.
	 */
	markPushed(results: readonly PushResult[]): Promise<void>;
	/**
	 * Applies documents from the changes feed, then records `checkpoint` (the feed's `last_seq`
	 * after them). Contract: the rows and the checkpoint are written in ONE transaction, so a
	 * crash either keeps both or neither, and a change is never skipped nor its rows half there.
	 * A session document merges with the local one (mergeSessionDocs); a message document of a
	 * deleted session is dropped (and its removal queued), never shown; a message document of a
	 * session not yet known is kept, its session arriving later in the same feed. A pulled
	 * session never clears this device's pending edits: what differs from the server stays pending.
	 */
	applyPulled(docs: readonly PulledDoc[], checkpoint: string): Promise<void>;
	/** The last checkpoint `applyPulled` recorded, or null before the first pull. */
	checkpoint(): Promise<string | null>;
	/**
	 * The bytes of a Blob a pending message names in its `blobs`, to send as an attachment of its
	 * document (undefined: gone since). A store without Blobs never names any.
	 */
	readBlob?(sessionId: string, id: string): Promise<Blob | undefined>;
	/**
	 * Of the Blobs each pulled message holds as attachments, the ones to fetch: within this
	 * device's limit (Settings → Sync) and not here already. One list per document of `docs`.
	 */
	wantedBlobs?(docs: readonly PulledDoc[]): Promise<BlobEntry[][]>;
}
