// Reads a document from the sync server, which is hostile input: every field is checked for its
// type, length and range with the same rules as an imported file, and anything else (an unknown
// field, a later format, a position out of place) refuses the whole document with the reason.
import { IMPORT_LIMITS } from '../sessions/import-rows';
import { FieldError, isPlainObject, list, nullable, number, record, text, type Parse } from '../sessions/import-schema';
import { DOCUMENT_FORMAT, parseDocId } from './document-ids';
import { SYNCED_MESSAGE_FIELDS, SYNCED_MESSAGE_SHAPE, type BlobEntry, type MessageDoc, type SyncedMessage } from './message-document';
import { isPosition } from './position';
import { CLOCKED_FIELDS, CLOCKED_FIELDS_SHAPE, type ClockedField, type ClockedFields, type SessionDoc } from './session-document';

export type ReadDocument =
	| { kind: 'session'; rev: string; doc: SessionDoc }
	/** `attached`: the ids of its `blobs` the server holds as attachments of this revision. */
	| { kind: 'message'; rev: string; doc: MessageDoc; attached?: string[] }
	/** A message document deleted on the server (a session's messages are, when it is deleted). */
	| { kind: 'message-removed'; rev: string; session_id: string; position: string }
	/** A deleted session's document, purged after the retention period (see SyncStore's PendingDoc). */
	| { kind: 'session-purged'; rev: string; session_id: string }
	| { kind: 'refused'; id: string | null; reason: string };

/** CouchDB's own fields that it may add on request; never read here. Any other `_` field is refused. */
const COUCH_FIELDS = new Set(['_id', '_rev', '_deleted', '_attachments', '_conflicts', '_deleted_conflicts', '_revisions', '_revs_info', '_local_seq']);
const SESSION_KEYS = new Set(['format', 'created_at', 'last_activity_at', 'deleted_at', 'fields', 'clocks']);
const MESSAGE_KEYS = new Set<string>(['format', 'covers', 'blobs', ...SYNCED_MESSAGE_FIELDS]);
/** CouchDB's revisions: a generation, a dash and a hash. */
const REV = /^[1-9][0-9]{0,9}-[0-9a-z]{1,64}$/;

const time = number(0, IMPORT_LIMITS.maxTime);
const clockedFields = record<ClockedFields>(CLOCKED_FIELDS_SHAPE, 'the synced fields (an object)');
const syncedMessage = record<SyncedMessage>(SYNCED_MESSAGE_SHAPE, 'a message (an object)', { ignored: [...COUCH_FIELDS, 'format', 'covers', 'blobs'] });
/** The largest Blob a document may name (a gigabyte: the limit itself is each device's own). */
const MAX_BLOB_BYTES = 1024 * 1024 * 1024;
const bytes = number(1, MAX_BLOB_BYTES, { integer: true });
const blobEntries = list(
	record<BlobEntry>(
		{ required: { id: text(IMPORT_LIMITS.idChars, { nonEmpty: true }), type: text(IMPORT_LIMITS.labelChars, { nonEmpty: true }), size: bytes }, optional: { limit: number(0, MAX_BLOB_BYTES, { integer: true }) } },
		'a Blob (an object)'
	),
	IMPORT_LIMITS.imagesPerSession
);

class Refusal extends Error {}

function refuse(reason: string): never {
	throw new Refusal(reason);
}

function describe(value: unknown): string {
	if (value === undefined) return 'is missing';
	const text = JSON.stringify(value) ?? String(value);
	return `is ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
}

/** Reads `value` with `parse`, refusing with the field's path when it does not fit or holds fields this app does not know. */
function field<T>(name: string, parse: Parse<T>, value: unknown): T {
	const dropped = { fields: 0 };
	let read: T;
	try {
		read = parse(value, dropped);
	} catch (error) {
		if (!(error instanceof FieldError)) throw error;
		const path = [name, ...error.path].filter(Boolean).join('.');
		refuse(`its “${path}” ${describe(error.value)}, expected ${error.expected}`);
	}
	if (dropped.fields) refuse(`${name ? `its “${name}”` : 'it'} holds ${dropped.fields === 1 ? 'a field' : `${dropped.fields} fields`} this app does not know`);
	return read;
}

function readClocks(value: unknown): Record<ClockedField, string> {
	if (!isPlainObject(value)) refuse(`its “clocks” ${describe(value)}, expected an object`);
	for (const key of Object.keys(value)) if (!(CLOCKED_FIELDS as string[]).includes(key)) refuse(`its “clocks” has “${key}”, a field that does not sync`);
	const clocks = {} as Record<ClockedField, string>;
	for (const name of CLOCKED_FIELDS) {
		const clock = Object.hasOwn(value, name) ? value[name] : undefined;
		if (!isPosition(clock)) refuse(`its “clocks.${name}” ${describe(clock)}, expected a clock (26 characters of Crockford base32)`);
		clocks[name] = clock;
	}
	return clocks;
}

function readSession(body: Record<string, unknown>, sessionId: string): SessionDoc {
	return {
		session_id: sessionId,
		created_at: field('created_at', time, body.created_at),
		last_activity_at: field('last_activity_at', time, body.last_activity_at),
		deleted_at: field('deleted_at', nullable(time), body.deleted_at),
		fields: field('fields', clockedFields, body.fields),
		clocks: readClocks(body.clocks)
	};
}

function readCovers(value: unknown, position: string): string[] {
	if (!Array.isArray(value) || value.length > IMPORT_LIMITS.messagesPerSession) refuse(`its “covers” ${describe(value)}, expected a list of positions`);
	value.forEach((covered, at) => {
		if (!isPosition(covered)) refuse(`its “covers.${at}” ${describe(covered)}, expected a position`);
		if (at > 0 && covered <= value[at - 1]) refuse('its “covers” is not in ascending order');
		// A device folds only messages it had seen, and every one of them sorts before its own.
		if (covered >= position) refuse(`its “covers” holds ${covered}, which is not before the document's own position`);
	});
	return [...value];
}

function readMessage(body: Record<string, unknown>, sessionId: string, position: string): MessageDoc {
	const message = field('', syncedMessage, body);
	return {
		session_id: sessionId,
		position,
		message,
		...(body.covers === undefined ? {} : { covers: readCovers(body.covers, position) }),
		...(body.blobs === undefined ? {} : { blobs: readBlobs(body.blobs) })
	};
}

function readBlobs(value: unknown): BlobEntry[] {
	const entries = field('blobs', blobEntries, value);
	const ids = new Set(entries.map((entry) => entry.id));
	if (ids.size !== entries.length) refuse('its “blobs” names one Blob twice');
	return entries;
}

/**
 * The ids of `blobs` the server holds as attachments (their stubs: the bytes are fetched apart),
 * each of the size and type its entry says; any other attachment is left unread.
 */
function readAttached(value: unknown, blobs: readonly BlobEntry[] | undefined): string[] {
	if (!isPlainObject(value) || !blobs) return [];
	return blobs.flatMap((entry) => {
		const stub = Object.hasOwn(value, entry.id) ? value[entry.id] : undefined;
		return entry.limit === undefined && isPlainObject(stub) && stub.length === entry.size && stub.content_type === entry.type ? [entry.id] : [];
	});
}

function read(body: unknown): Exclude<ReadDocument, { kind: 'refused' }> {
	if (!isPlainObject(body)) refuse('it is not a JSON object');
	const id = parseDocId(body._id);
	if (!id) refuse(body._id === undefined ? 'it has no “_id”' : `its “_id” ${describe(body._id)}, expected session:<id> or msg:<session>:<position>`);
	const rev = body._rev;
	if (typeof rev !== 'string' || !REV.test(rev)) refuse(`its “_rev” ${describe(rev)}, expected a CouchDB revision`);
	if (body._deleted !== undefined && typeof body._deleted !== 'boolean') refuse(`its “_deleted” ${describe(body._deleted)}, expected true or false`);
	if (body._deleted) {
		// A session's deletion is its `deleted_at`; its document goes only once that is past the retention period.
		if (id.kind === 'session') return { kind: 'session-purged', rev, session_id: id.session_id };
		return { kind: 'message-removed', rev, session_id: id.session_id, position: id.position };
	}
	const known = id.kind === 'session' ? SESSION_KEYS : MESSAGE_KEYS;
	for (const key of Object.keys(body)) if (!known.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
	const format = body.format;
	if (typeof format !== 'number' || !Number.isInteger(format) || format < 1) refuse(`its “format” ${describe(format)}, expected a format version`);
	if (format > DOCUMENT_FORMAT) refuse(`it was written by a newer Palimpsest (format ${format}; this app reads up to ${DOCUMENT_FORMAT})`);
	if (id.kind === 'session') return { kind: 'session', rev, doc: readSession(body, id.session_id) };
	const doc = readMessage(body, id.session_id, id.position);
	const attached = readAttached(body._attachments, doc.blobs);
	return { kind: 'message', rev, doc, ...(attached.length ? { attached } : {}) };
}

/** What a document from the server says, or why it is refused (the document is then left alone, and nothing of it read). */
export function readDocument(body: unknown): ReadDocument {
	try {
		return read(body);
	} catch (error) {
		if (!(error instanceof Refusal)) throw error;
		const id = isPlainObject(body) && typeof body._id === 'string' ? body._id.slice(0, 300) : null;
		return { kind: 'refused', id, reason: `${id === null ? 'A document' : `Document ${JSON.stringify(id)}`} is refused: ${error.message}.` };
	}
}
