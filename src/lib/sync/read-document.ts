// Reads a document from the sync server, which is hostile input: every field is checked for its
// type, length and range with the same rules as an imported file, and anything else (an unknown
// field, a later format, a clock or position more than a day ahead of this device's clock) refuses
// the whole document with the reason. Documents of format 1 (before fields had clocks) are read
// into today's shape.
import { orderOfRank } from '../db/rank';
import { IMPORT_LIMITS } from '../sessions/import-rows';
import { FieldError, isPlainObject, list, nullable, number, record, text, type Parse } from '../sessions/import-schema';
import { withinReach, ZERO_CLOCK } from './clock';
import { DOCUMENT_FORMAT, parseDocId, type DocumentId } from './document-ids';
import { BLOB_ENTRIES, MESSAGE_FIELDS, SYNCED_MESSAGE_SHAPE, type BlobEntry, type MessageDoc, type MessageField, type SyncedMessage } from './message-document';
import { removedMessage } from './merge-message';
import { isPosition } from './position';
import { CLOCKED_FIELDS, CLOCKED_FIELDS_SHAPE, LATER_FIELDS, purgedSession, ROW_FIELDS, type ClockedField, type ClockedFields, type SessionDoc, type ShownVersion } from './session-document';
import { deletedPrompt, PROMPT_FIELDS, type PromptDoc, type PromptField } from './prompt-document';
import { promptName, promptText } from '../prompts/read-prompts';
import { ASSISTANT_FIELDS, deletedAssistant, type AssistantDoc, type AssistantField } from './assistant-document';
import { assistantChatSettings, assistantModel, assistantName, assistantStarters } from '../assistants/read-assistants';

/** What a format-1 message document still says that today's documents say otherwise. */
export interface LegacyMessage {
	/** The positions a compaction covered (today each covered row says what covers it). */
	covers?: string[];
	/** Its Blobs held as attachments of the message's own document. */
	attached?: string[];
}

export type ReadDocument =
	| { kind: 'session'; rev: string; doc: SessionDoc; conflicts?: string[] }
	| { kind: 'message'; rev: string; doc: MessageDoc; conflicts?: string[]; legacy?: LegacyMessage }
	| { kind: 'prompt'; rev: string; doc: PromptDoc; conflicts?: string[] }
	| { kind: 'assistant'; rev: string; doc: AssistantDoc; conflicts?: string[] }
	/** The bytes of a Blob, as an attachment named `data` (fetched apart). */
	| { kind: 'blob'; rev: string; session_id: string; blob_id: string; type: string; size: number }
	/** Deleted on the server (CouchDB's `_deleted`): a purged session's messages are, nothing else this app writes. */
	| { kind: 'deleted'; rev: string; id: DocumentId }
	/** `forged`: an encrypted database's document that does not open: the server's copy is not to be merged with, but written over. */
	| { kind: 'refused'; id: string | null; reason: string; forged?: true };

/** CouchDB's own fields that it may add on request; never read here. Any other `_` field is refused. */
const COUCH_FIELDS = new Set(['_id', '_rev', '_deleted', '_attachments', '_conflicts', '_deleted_conflicts', '_revisions', '_revs_info', '_local_seq']);
const SESSION_KEYS = new Set(['format', 'created_at', 'last_activity_at', 'fields', 'clocks', 'shown', 'purged_at']);
const MESSAGE_KEYS = new Set(['format', 'clock', 'fields', 'clocks', 'removed']);
const PROMPT_KEYS = new Set(['format', 'created_at', 'updated_at', 'fields', 'clocks', 'deleted_at']);
/** An assistant's document has the keys of a prompt's. */
const ASSISTANT_KEYS = PROMPT_KEYS;
const LEGACY_SESSION_KEYS = new Set(['format', 'created_at', 'last_activity_at', 'deleted_at', 'fields', 'clocks']);
const LEGACY_MESSAGE_FIELDS = ['id', 'role', 'content', 'status', 'kind', 'created_at', 'tool_calls', 'tool_call_id', 'tool_result', 'tokens', 'encoding', 'error', 'compaction', 'native', 'model', 'provider', 'tokens_per_second', 'usage'];
const LEGACY_MESSAGE_KEYS = new Set<string>(['format', 'covers', 'blobs', ...LEGACY_MESSAGE_FIELDS]);
/** CouchDB's revisions: a generation, a dash and a hash. */
const REV = /^[1-9][0-9]{0,9}-[0-9a-z]{1,64}$/;
/** Places with versions in one session. */
const MAX_SHOWN = 100_000;

const time = number(0, IMPORT_LIMITS.maxTime);
const clockedFields = record<ClockedFields>(CLOCKED_FIELDS_SHAPE, 'the synced fields (an object)');
const legacyFields = record<Omit<ClockedFields, 'deleted_at' | 'provider_ref'>>(
	{ required: Object.fromEntries(ROW_FIELDS.map((field) => [field, CLOCKED_FIELDS_SHAPE.required[field]])) as never, optional: {} },
	'the synced fields (an object)'
);
const syncedMessage = record<SyncedMessage>(SYNCED_MESSAGE_SHAPE, 'a message (an object)');
/** An assistant's fields by the rules an imported one is read with: a value out of bounds refuses the document. */
const assistantFields = record<AssistantDoc['fields']>(
	{
		required: {
			name: assistantName,
			provider: assistantModel,
			model: assistantModel,
			chat_settings: nullable(assistantChatSettings),
			starters: assistantStarters
		},
		optional: {}
	},
	'the synced fields (an object)'
);
const promptFields = record<PromptDoc['fields']>({ required: { name: promptName, text: promptText }, optional: {} }, 'the synced fields (an object)');
const legacyMessage = record<SyncedMessage>(
	{ required: SYNCED_MESSAGE_SHAPE.required, optional: Object.fromEntries(LEGACY_MESSAGE_FIELDS.filter((f) => f in SYNCED_MESSAGE_SHAPE.optional).map((f) => [f, SYNCED_MESSAGE_SHAPE.optional[f as keyof typeof SYNCED_MESSAGE_SHAPE.optional]])) as never },
	'a message (an object)',
	{ ignored: [...COUCH_FIELDS, 'format', 'covers', 'blobs', 'tokens', 'encoding'] }
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

/** A clock, or a position: within a day of this device's clock. */
function reach(name: string, value: unknown, now: number): string {
	if (!isPosition(value)) refuse(`its “${name}” ${describe(value)}, expected a clock (26 characters of Crockford base32)`);
	if (!withinReach(value, now)) refuse(`its “${name}” is a clock more than a day ahead of this device's (refused as written from the future)`);
	return value;
}

function readClocks(value: unknown, now: number, legacy: boolean): Record<ClockedField, string> {
	if (!isPlainObject(value)) refuse(`its “clocks” ${describe(value)}, expected an object`);
	const names = legacy ? ROW_FIELDS : CLOCKED_FIELDS;
	for (const key of Object.keys(value)) if (!(names as string[]).includes(key)) refuse(`its “clocks” has “${key}”, a field that does not sync`);
	const clocks = {} as Record<ClockedField, string>;
	for (const name of names) {
		// A field added since documents were first written is left out where it was never set.
		if (!Object.hasOwn(value, name) && Object.hasOwn(LATER_FIELDS, name)) clocks[name] = ZERO_CLOCK;
		else clocks[name] = reach(`clocks.${name}`, Object.hasOwn(value, name) ? value[name] : undefined, now);
	}
	return clocks;
}

function readShown(value: unknown, now: number): Record<string, ShownVersion> {
	if (value === undefined) return {};
	if (!isPlainObject(value) || Object.keys(value).length > MAX_SHOWN) refuse(`its “shown” ${describe(value)}, expected an object`);
	const shown: Record<string, ShownVersion> = {};
	for (const [key, entry] of Object.entries(value)) {
		if (key !== '' && !isPosition(key)) refuse(`its “shown” has “${String(key).slice(0, 40)}”, which is not a place`);
		if (!isPlainObject(entry) || Object.keys(entry).some((k) => k !== 'id' && k !== 'clock')) refuse(`its “shown.${key}” ${describe(entry)}, expected a version and its clock`);
		shown[key] = { id: reach(`shown.${key}.id`, entry.id, now), clock: reach(`shown.${key}.clock`, entry.clock, now) };
	}
	return shown;
}

function readSession(body: Record<string, unknown>, sessionId: string, now: number, format: number): SessionDoc {
	if (format === 1) {
		for (const key of Object.keys(body)) if (!LEGACY_SESSION_KEYS.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
		const fields = field('fields', legacyFields, body.fields);
		const clocks = readClocks(body.clocks, now, true);
		const deletedAt = field('deleted_at', nullable(time), body.deleted_at);
		let latest = ZERO_CLOCK;
		for (const name of ROW_FIELDS) if (!Object.hasOwn(LATER_FIELDS, name) && clocks[name] > latest) latest = clocks[name];
		// Format 1 had no clock for a deletion, which no edit undid: it holds over every edit it saw.
		return {
			session_id: sessionId,
			created_at: field('created_at', time, body.created_at),
			last_activity_at: field('last_activity_at', time, body.last_activity_at),
			fields: { ...fields, deleted_at: deletedAt, provider_ref: null },
			clocks: { ...clocks, deleted_at: deletedAt === null ? ZERO_CLOCK : latest, provider_ref: ZERO_CLOCK },
			shown: {},
			purged_at: null
		};
	}
	for (const key of Object.keys(body)) if (!SESSION_KEYS.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
	if (body.purged_at !== undefined && body.purged_at !== null) return purgedSession(sessionId, field('purged_at', time, body.purged_at));
	const doc: SessionDoc = {
		session_id: sessionId,
		created_at: field('created_at', time, body.created_at),
		last_activity_at: field('last_activity_at', time, body.last_activity_at),
		fields: field('fields', clockedFields, body.fields),
		clocks: readClocks(body.clocks, now, false),
		shown: readShown(body.shown, now),
		purged_at: null
	};
	if (doc.fields.deleted_at !== null && doc.fields.deleted_at > now + 24 * 60 * 60 * 1000) refuse('its “deleted_at” is more than a day ahead of this device’s clock');
	return doc;
}

function readMessageClocks(value: unknown, now: number): Partial<Record<MessageField, string>> {
	if (value === undefined) return {};
	if (!isPlainObject(value)) refuse(`its “clocks” ${describe(value)}, expected an object`);
	const clocks: Partial<Record<MessageField, string>> = {};
	for (const [key, clock] of Object.entries(value)) {
		if (!(MESSAGE_FIELDS as string[]).includes(key)) refuse(`its “clocks” has “${key}”, a field that does not sync`);
		clocks[key as MessageField] = reach(`clocks.${key}`, clock, now);
	}
	return clocks;
}

function readCovers(value: unknown, position: string): string[] {
	if (!Array.isArray(value) || value.length > IMPORT_LIMITS.messagesPerSession) refuse(`its “covers” ${describe(value)}, expected a list of positions`);
	value.forEach((covered, at) => {
		if (!isPosition(covered)) refuse(`its “covers.${at}” ${describe(covered)}, expected a position`);
		if (at > 0 && covered <= value[at - 1]) refuse('its “covers” is not in ascending order');
		if (covered >= position) refuse(`its “covers” holds ${covered}, which is not before the document's own position`);
	});
	return [...value];
}

function readBlobs(value: unknown): BlobEntry[] {
	const entries = field('blobs', BLOB_ENTRIES, value);
	if (new Set(entries.map((entry) => entry.id)).size !== entries.length) refuse('its “blobs” names one Blob twice');
	return entries;
}

/** The ids of `blobs` a format-1 document holds as attachments of the size and type its entry says. */
function readAttached(value: unknown, blobs: readonly BlobEntry[] | undefined): string[] {
	if (!isPlainObject(value) || !blobs) return [];
	return blobs.flatMap((entry) => {
		const stub = Object.hasOwn(value, entry.id) ? value[entry.id] : undefined;
		return entry.limit === undefined && isPlainObject(stub) && stub.length === entry.size && stub.content_type === entry.type ? [entry.id] : [];
	});
}

function readMessage(body: Record<string, unknown>, sessionId: string, position: string, now: number, format: number): { doc: MessageDoc; legacy?: LegacyMessage } {
	reach('_id', position, now);
	if (format === 1) {
		for (const key of Object.keys(body)) if (!LEGACY_MESSAGE_KEYS.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
		const fields = field('', legacyMessage, body);
		const covers = body.covers === undefined ? undefined : readCovers(body.covers, position);
		const blobs = body.blobs === undefined ? undefined : readBlobs(body.blobs);
		// A summary of format 1 sat after the last row it covered: its order key says so now.
		const order = covers?.length ? `${orderOfRank(covers.at(-1)!)}V` : undefined;
		const attached = readAttached(body._attachments, blobs);
		const doc: MessageDoc = { session_id: sessionId, position, clock: position, fields: { ...fields, ...(order ? { order } : {}), ...(blobs?.length ? { blobs } : {}) }, clocks: {}, removed: false };
		return { doc, legacy: { ...(covers?.length ? { covers } : {}), ...(attached.length ? { attached } : {}) } };
	}
	for (const key of Object.keys(body)) if (!MESSAGE_KEYS.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
	if (body.removed !== undefined && body.removed !== true) refuse(`its “removed” ${describe(body.removed)}, expected true`);
	const clock = body.clock === undefined ? position : reach('clock', body.clock, now);
	if (body.removed) return { doc: removedMessage({ session_id: sessionId, position, clock }) };
	const fields = field('fields', syncedMessage, body.fields);
	if (fields.blobs && new Set(fields.blobs.map((entry) => entry.id)).size !== fields.blobs.length) refuse('its “fields.blobs” names one Blob twice');
	if (fields.branch) reach('fields.branch.id', fields.branch.id, now);
	return { doc: { session_id: sessionId, position, clock, fields, clocks: readMessageClocks(body.clocks, now), removed: false } };
}

/** A saved prompt: its name and text within what a prompt may be here, each with its clock; or its tombstone. */
function readPrompt(body: Record<string, unknown>, promptId: string, now: number): PromptDoc {
	for (const key of Object.keys(body)) if (!PROMPT_KEYS.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
	if (body.deleted_at !== undefined && body.deleted_at !== null) return deletedPrompt(promptId, field('deleted_at', time, body.deleted_at));
	const clocks = body.clocks;
	if (!isPlainObject(clocks) || Object.keys(clocks).some((key) => !(PROMPT_FIELDS as readonly string[]).includes(key))) refuse(`its “clocks” ${describe(clocks)}, expected the clocks of its name and text`);
	const read = {} as Record<PromptField, string>;
	for (const name of PROMPT_FIELDS) read[name] = reach(`clocks.${name}`, Object.hasOwn(clocks, name) ? clocks[name] : undefined, now);
	return {
		prompt_id: promptId,
		created_at: field('created_at', time, body.created_at),
		updated_at: field('updated_at', time, body.updated_at),
		fields: field('fields', promptFields, body.fields),
		clocks: read,
		deleted_at: null
	};
}

/** An assistant: its fields within what an assistant may be here, each with its clock; or its tombstone. */
function readAssistant(body: Record<string, unknown>, assistantId: string, now: number): AssistantDoc {
	for (const key of Object.keys(body)) if (!ASSISTANT_KEYS.has(key) && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
	if (body.deleted_at !== undefined && body.deleted_at !== null) return deletedAssistant(assistantId, field('deleted_at', time, body.deleted_at));
	const clocks = body.clocks;
	if (!isPlainObject(clocks) || Object.keys(clocks).some((key) => !(ASSISTANT_FIELDS as readonly string[]).includes(key))) refuse(`its “clocks” ${describe(clocks)}, expected the clocks of its fields`);
	const read = {} as Record<AssistantField, string>;
	for (const name of ASSISTANT_FIELDS) read[name] = reach(`clocks.${name}`, Object.hasOwn(clocks, name) ? clocks[name] : undefined, now);
	const fields = field('fields', assistantFields, body.fields);
	// None set is null, as this app writes it.
	if (fields.chat_settings && !Object.keys(fields.chat_settings).length) fields.chat_settings = null;
	return {
		assistant_id: assistantId,
		created_at: field('created_at', time, body.created_at),
		updated_at: field('updated_at', time, body.updated_at),
		fields,
		clocks: read,
		deleted_at: null
	};
}

/** A blob document: its one attachment, `data`, of a type and size within bounds (the bytes are checked when fetched). */
function readBlob(body: Record<string, unknown>): { type: string; size: number } {
	for (const key of Object.keys(body)) if (key !== 'format' && !COUCH_FIELDS.has(key)) refuse(`it has “${key}”, a field this app does not know`);
	const attachments = body._attachments;
	const stub = isPlainObject(attachments) && Object.keys(attachments).length === 1 && Object.hasOwn(attachments, 'data') ? attachments.data : undefined;
	if (!isPlainObject(stub)) refuse('it holds no Blob');
	const type = field('_attachments.data.content_type', text(IMPORT_LIMITS.labelChars, { nonEmpty: true }), stub.content_type);
	const size = field('_attachments.data.length', number(1, 1024 * 1024 * 1024, { integer: true }), stub.length);
	return { type, size };
}

function readConflicts(body: Record<string, unknown>): string[] | undefined {
	const value = body._conflicts;
	if (value === undefined) return undefined;
	const revs = field('_conflicts', list(text(80, { nonEmpty: true }), 1_000), value);
	for (const rev of revs) if (!REV.test(rev)) refuse('its “_conflicts” holds something that is not a revision');
	return revs.length ? revs : undefined;
}

function read(body: unknown, now: number): Exclude<ReadDocument, { kind: 'refused' }> {
	if (!isPlainObject(body)) refuse('it is not a JSON object');
	const id = parseDocId(body._id);
	if (!id) refuse(body._id === undefined ? 'it has no “_id”' : `its “_id” ${describe(body._id)}, expected session:<id>, msg:<session>:<position>, blob:<session>:<id>, prompt:<id> or assistant:<id>`);
	const rev = body._rev;
	if (typeof rev !== 'string' || !REV.test(rev)) refuse(`its “_rev” ${describe(rev)}, expected a CouchDB revision`);
	if (body._deleted !== undefined && typeof body._deleted !== 'boolean') refuse(`its “_deleted” ${describe(body._deleted)}, expected true or false`);
	if (body._deleted) return { kind: 'deleted', rev, id };
	const conflicts = readConflicts(body);
	if (id.kind === 'blob') return { kind: 'blob', rev, session_id: id.session_id, blob_id: id.blob_id, ...readBlob(body) };
	const format = body.format;
	if (typeof format !== 'number' || !Number.isInteger(format) || format < 1) refuse(`its “format” ${describe(format)}, expected a format version`);
	if (format > DOCUMENT_FORMAT) refuse(`it was written by a newer Palimpsest (format ${format}; this app reads up to ${DOCUMENT_FORMAT})`);
	if (id.kind === 'session') return { kind: 'session', rev, doc: readSession(body, id.session_id, now, format), ...(conflicts ? { conflicts } : {}) };
	if (id.kind === 'prompt') return { kind: 'prompt', rev, doc: readPrompt(body, id.prompt_id, now), ...(conflicts ? { conflicts } : {}) };
	if (id.kind === 'assistant') return { kind: 'assistant', rev, doc: readAssistant(body, id.assistant_id, now), ...(conflicts ? { conflicts } : {}) };
	const { doc, legacy } = readMessage(body, id.session_id, id.position, now, format);
	return { kind: 'message', rev, doc, ...(conflicts ? { conflicts } : {}), ...(legacy && Object.keys(legacy).length ? { legacy } : {}) };
}

/** What a document from the server says, or why it is refused (the document is then left alone, and nothing of it read). */
export function readDocument(body: unknown, now: number = Date.now()): ReadDocument {
	try {
		return read(body, now);
	} catch (error) {
		if (!(error instanceof Refusal)) throw error;
		const id = isPlainObject(body) && typeof body._id === 'string' ? body._id.slice(0, 300) : null;
		return { kind: 'refused', id, reason: `${id === null ? 'A document' : `Document ${JSON.stringify(id)}`} is refused: ${error.message}.` };
	}
}
