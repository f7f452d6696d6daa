// What sync keeps beside the rows: its knowledge of each document, the changes not yet taken in,
// and the sessions another device deleted.
import type { BlobRow } from './attachment';
import type { MessageRow } from './message-row';
import type { SessionRow } from './session-row';

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
