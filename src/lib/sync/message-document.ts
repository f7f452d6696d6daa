// The synced part of a message and its CouchDB body. Every field merges by its own clock, as a
// session's do: the content once complete, the status, what covers or retires the row, the
// version it belongs to, the Blobs it shows. `clock` is the clock of every field not in
// `clocks` (a message's own position when it was first sent). Which rows are active, their
// seqs and which version is on show are derived on each device (db/conversation.ts), never sent;
// so are token counts, the request's recipe and plugin context (this device's own).
import type { BranchTag, MessageRow } from '../db/schema';
import { isOrderKey, orderKeyOf, rankOf } from '../db/rank';
import { IMPORT_LIMITS, MESSAGE_SHAPE } from '../sessions/import-rows';
import { list, nullable, number, oneOf, record, text, FieldError, type Parse, type Shape } from '../sessions/import-schema';
import { DOCUMENT_FORMAT, messageDocId } from './document-ids';
import { isPosition } from './position';

/** An answer still streaming is sent once final; a document never says `streaming`. */
export const SYNCED_STATUSES = ['complete', 'aborted', 'error', 'incomplete'] as const;

/**
 * A Blob the message refers to (an image of a tool's result, an attachment), by the id its row
 * names it with. One within the sending device's limit travels as a blob document of its own;
 * one larger stays there, and `limit` says the limit it exceeded (bytes), so the other device can
 * say why it shows no image.
 */
export interface BlobEntry {
	id: string;
	type: string;
	/** Bytes. */
	size: number;
	limit?: number;
}

/** The fields of a message as they sync (absent: not set). */
export type SyncedMessage = Pick<MessageRow, 'id' | 'role' | 'content' | 'status' | 'kind' | 'created_at'> &
	Partial<
		Pick<
			MessageRow,
			| 'tool_calls'
			| 'tool_call_id'
			| 'tool_result'
			| 'ran_with'
			| 'error'
			| 'compaction'
			| 'native'
			| 'model'
			| 'provider'
			| 'tokens_per_second'
			| 'usage'
			| 'attachments'
			| 'images_pruned'
			| 'branch'
			| 'retired_by'
			| 'pinned'
		>
	> & {
		/** The order key of a row placed among others (see db/rank.ts); absent: its position orders it. */
		order?: string;
		/** The summary or edited summary that covers it (the row's `compacted_by`). */
		compacted_by?: string;
		blobs?: BlobEntry[];
	};

export type MessageField = keyof SyncedMessage;

/** The largest Blob a document may name (a gigabyte: the limit itself is each device's own). */
const MAX_BLOB_BYTES = 1024 * 1024 * 1024;
const bytes = number(1, MAX_BLOB_BYTES, { integer: true });
export const BLOB_ENTRIES: Parse<BlobEntry[]> = list(
	record<BlobEntry>(
		{ required: { id: text(IMPORT_LIMITS.idChars, { nonEmpty: true }), type: text(IMPORT_LIMITS.labelChars, { nonEmpty: true }), size: bytes }, optional: { limit: number(0, MAX_BLOB_BYTES, { integer: true }) } },
		'a Blob (an object)'
	),
	IMPORT_LIMITS.imagesPerSession
);

const positionOrStart: Parse<string | null> = nullable((v) => {
	if (!isPosition(v)) throw new FieldError([], v, 'a position');
	return v;
});
const versionId: Parse<string> = (v) => {
	if (!isPosition(v)) throw new FieldError([], v, 'a version id (26 characters of Crockford base32)');
	return v;
};
const orderKey: Parse<string> = (v) => {
	if (!isOrderKey(v)) throw new FieldError([], v, 'an order key (Crockford base32)');
	return v;
};

const M = MESSAGE_SHAPE;
/** How each synced field is read from a server: the row's own rules (the compiler checks it lists every field). */
export const SYNCED_MESSAGE_SHAPE: Shape<SyncedMessage> = {
	required: { id: M.required.id, role: M.required.role, content: M.required.content, status: oneOf(SYNCED_STATUSES), kind: M.required.kind, created_at: M.required.created_at },
	optional: {
		tool_calls: M.optional.tool_calls,
		tool_call_id: M.optional.tool_call_id,
		tool_result: M.optional.tool_result,
		ran_with: M.optional.ran_with,
		error: M.optional.error,
		compaction: M.optional.compaction,
		native: M.optional.native,
		model: M.optional.model,
		provider: M.optional.provider,
		tokens_per_second: M.optional.tokens_per_second,
		usage: M.optional.usage,
		attachments: M.optional.attachments,
		images_pruned: M.optional.images_pruned,
		branch: record<BranchTag>({ required: { at: positionOrStart, id: versionId }, optional: {} }, 'a version (an object)'),
		retired_by: M.optional.retired_by,
		pinned: M.optional.pinned,
		order: orderKey,
		compacted_by: text(IMPORT_LIMITS.idChars, { nonEmpty: true }),
		blobs: BLOB_ENTRIES
	}
};

export const MESSAGE_FIELDS = [...Object.keys(SYNCED_MESSAGE_SHAPE.required), ...Object.keys(SYNCED_MESSAGE_SHAPE.optional)] as MessageField[];

/**
 * A message as it syncs: each field's clock is `clocks[field]`, else `clock`. A removed message
 * (Retry dropped it) keeps only that: removal is final, and its content leaves the server.
 */
export interface MessageDoc {
	session_id: string;
	position: string;
	clock: string;
	fields: SyncedMessage;
	clocks: Partial<Record<MessageField, string>>;
	removed: boolean;
}

/** The clock of one field. */
export const fieldClock = (doc: MessageDoc, field: MessageField): string => doc.clocks[field] ?? doc.clock;

/** The synced fields of a row (a row still streaming has none yet: the caller waits for it to end). */
export function fieldsOfRow(row: MessageRow, blobs: readonly BlobEntry[] = []): SyncedMessage {
	const fields: Record<string, unknown> = {};
	for (const field of MESSAGE_FIELDS) {
		if (field === 'order') {
			const order = orderKeyOf(row.rank);
			if (order !== undefined) fields.order = order;
		} else if (field === 'compacted_by') {
			if (row.compacted_by !== null && row.compacted_by !== undefined) fields.compacted_by = row.compacted_by;
		} else if (field === 'blobs') {
			if (blobs.length) fields.blobs = blobs.map((entry) => ({ ...entry }));
		} else {
			const value = (row as unknown as Record<string, unknown>)[field];
			if (value !== undefined) fields[field] = typeof value === 'object' && value !== null ? structuredClone(value) : value;
		}
	}
	return fields as SyncedMessage;
}

/** What a message document sets on this device's row (its session, seq and derived fields are this device's). */
export function rowFieldsOf(doc: MessageDoc): Omit<MessageRow, 'session_id' | 'seq' | 'active' | 'shelved'> {
	const { order, compacted_by, blobs: _blobs, ...fields } = doc.fields;
	return { ...fields, position: doc.position, rank: rankOf(doc.position, order), compacted_by: compacted_by ?? null };
}

/** The CouchDB body of a message document, with the revision it replaces (none for a new one). */
export function messageToBody(doc: MessageDoc, rev?: string | null): Record<string, unknown> {
	const head = { _id: messageDocId(doc.session_id, doc.position), ...(rev ? { _rev: rev } : {}), format: DOCUMENT_FORMAT };
	if (doc.removed) return { ...head, removed: true };
	return { ...head, clock: doc.clock, fields: { ...doc.fields }, ...(Object.keys(doc.clocks).length ? { clocks: { ...doc.clocks } } : {}) };
}
