// The synced part of a message and its CouchDB body. A message document never changes once
// written (only its deletion syncs); a compaction is a new document listing the positions it
// covers, so which messages are active is derived on each device (see active-messages.ts).
import type { MessageRow } from '../db/schema';
import { MESSAGE_SHAPE } from '../sessions/import-rows';
import { oneOf, type Shape } from '../sessions/import-schema';
import { DOCUMENT_FORMAT, messageDocId } from './document-ids';
import { isPosition } from './position';

/**
 * Not synced: the session and seq (the document id carries session and position), whether the
 * row is active, compacted or on a shelved version (derived or chosen on each device), the
 * request's recipe (it points to frames kept in this device's settings), and plugin context
 * (the plugin's own text, like its storage; it serves only rebuilding that request).
 */
export type SyncedMessage = Pick<
	MessageRow,
	| 'id'
	| 'role'
	| 'content'
	| 'status'
	| 'kind'
	| 'created_at'
	| 'tool_calls'
	| 'tool_call_id'
	| 'tool_result'
	| 'ran_with'
	| 'tokens'
	| 'encoding'
	| 'error'
	| 'compaction'
	| 'native'
	| 'model'
	| 'provider'
	| 'tokens_per_second'
	| 'usage'
>;

/** An answer still streaming is sent once final; a document never says `streaming`. */
export const SYNCED_STATUSES = ['complete', 'aborted', 'error', 'incomplete'] as const;

const M = MESSAGE_SHAPE;
/** How each synced field is read from a server: the row's own rules (the compiler checks it lists every field). */
export const SYNCED_MESSAGE_SHAPE: Shape<SyncedMessage> = {
	required: { id: M.required.id, role: M.required.role, content: M.required.content, status: oneOf(SYNCED_STATUSES), kind: M.required.kind, created_at: M.required.created_at },
	optional: {
		tool_calls: M.optional.tool_calls,
		tool_call_id: M.optional.tool_call_id,
		tool_result: M.optional.tool_result,
		ran_with: M.optional.ran_with,
		tokens: M.optional.tokens,
		encoding: M.optional.encoding,
		error: M.optional.error,
		compaction: M.optional.compaction,
		native: M.optional.native,
		model: M.optional.model,
		provider: M.optional.provider,
		tokens_per_second: M.optional.tokens_per_second,
		usage: M.optional.usage
	}
};

const REQUIRED = Object.keys(SYNCED_MESSAGE_SHAPE.required) as (keyof SyncedMessage)[];
const OPTIONAL = Object.keys(SYNCED_MESSAGE_SHAPE.optional) as (keyof SyncedMessage)[];
/** Every field a message document carries (besides its format and what it covers). */
export const SYNCED_MESSAGE_FIELDS: readonly (keyof SyncedMessage)[] = [...REQUIRED, ...OPTIONAL];

/**
 * A Blob the message refers to (an image of a tool's result, an attachment), by the id its row
 * names it with. One within the sending device's limit travels as a CouchDB attachment of the
 * message's document, named by its id; one larger stays there, and `limit` says the limit it
 * exceeded (bytes), so the other device can say why it shows no image.
 */
export interface BlobEntry {
	id: string;
	type: string;
	/** Bytes. */
	size: number;
	limit?: number;
}

/**
 * A message as it syncs. `covers`, on a compaction's row, lists the positions it folds, ascending;
 * `blobs` lists the Blobs it refers to.
 */
export interface MessageDoc {
	session_id: string;
	position: string;
	message: SyncedMessage;
	covers?: string[];
	blobs?: BlobEntry[];
}

/** The document of a row at `position`, with only the synced fields. Refuses an answer still streaming. */
export function messageDocFromRow(row: MessageRow, position: string, covers?: readonly string[]): MessageDoc {
	if (row.status === 'streaming') throw new Error(`Message ${row.id} is still streaming; it syncs once final.`);
	const message: Record<string, unknown> = {};
	for (const field of SYNCED_MESSAGE_FIELDS) if (row[field] !== undefined) message[field] = structuredClone(row[field]);
	return { session_id: row.session_id, position, message: message as SyncedMessage, ...(covers ? { covers: checkCovers(covers, position) } : {}) };
}

/** The positions a compaction covers, ascending, each before its own (a device folds only what it had seen). */
function checkCovers(covers: readonly string[], position: string): string[] {
	const sorted = [...new Set(covers)].sort();
	for (const covered of sorted) {
		if (!isPosition(covered) || covered >= position) throw new Error(`A compaction at ${position} cannot cover ${JSON.stringify(covered)}.`);
	}
	return sorted;
}

/** The CouchDB body of a message document (a new one: message documents are never updated). */
export function messageToBody(doc: MessageDoc): Record<string, unknown> {
	return {
		_id: messageDocId(doc.session_id, doc.position),
		format: DOCUMENT_FORMAT,
		...doc.message,
		...(doc.covers ? { covers: [...doc.covers] } : {}),
		...(doc.blobs?.length ? { blobs: doc.blobs.map((entry) => ({ ...entry })) } : {})
	};
}
