// What the CouchDB client takes and gives: its options, and the shapes of the server's answers
// once read (see couch-client.ts).
import type { ReadDocument } from './read-document';

/** A CouchDB user's name and password, held by the caller in memory only, never stored. */
export interface Credentials {
	name: string;
	password: string;
}

export interface CouchClientOptions {
	/** The database's URL, e.g. `https://couch.example.com/userdb-…`. */
	url: string;
	fetch?: typeof fetch;
	/** The credentials the caller holds now, or null: an expired cookie is renewed only while it holds them. */
	credentials?: () => Credentials | null;
	/** Bytes one answer may carry (default 32 MB). */
	maxResponseBytes?: number;
	/** Bytes one document may take (default 8 MB, CouchDB's max_document_size): a larger one is skipped. */
	maxDocumentBytes?: number;
	/** This device's clock: a clock read from the server more than a day ahead of it is refused. */
	now?: () => number;
}

export type BulkResult = { id: string; ok: true; rev: string } | { id: string; ok: false; error: string; reason: string };

/** A document left unread, and why. */
export interface Skipped {
	id: string | null;
	reason: string;
}

export interface ChangesPage {
	docs: ReadDocument[];
	skipped: Skipped[];
	/** The changes this page held, read or skipped. */
	count: number;
	/** Their document ids, in order (null where unreadable). */
	ids: (string | null)[];
	lastSeq: string;
	/** Changes still to come after this page, when the server says (CouchDB does, pouchdb-server does not). */
	pending: number | null;
	/** Asked for with `leaves`: each change's leaf revisions, and whether it is a deletion (null where unreadable). */
	leaves?: ({ revs: string[]; deleted: boolean } | null)[];
}

export interface ChangesRequest {
	since: string;
	limit: number;
	/** False lists only the ids and seqs (to step past a change too large to read, or to see what is new before reading it). */
	includeDocs?: boolean;
	/** Without the documents: each change's leaf revisions too (its conflicting branches among them). */
	leaves?: boolean;
	/** Wait up to this long for a change when there is none yet (`feed=longpoll`). */
	longPollMs?: number;
	signal?: AbortSignal;
}

/** A document as `_all_docs` knows it. */
export type FetchedDoc = { state: 'missing' } | { state: 'deleted'; rev: string } | { state: 'present'; rev: string; read: ReadDocument };
