// The synced part of a session and its CouchDB body: the fields listed here and nothing else, each
// with the clock of its last edit. Its profile, counts, next seq, compaction cooldowns, token
// ratio, import origin and derived versions are this device's own, kept or derived here and never
// sent. A deletion is a field like the others (Restore sets it back); only a purge is final.
import type { AssistantRef, ChatSettings, SessionRow } from '../db/schema';
import { SESSION_SHAPE } from '../sessions/import-rows';
import { nullable, type Parse, type Shape } from '../sessions/import-schema';
import { nextClock, ZERO_CLOCK } from './clock';
import { DOCUMENT_FORMAT, sessionDocId } from './document-ids';
import type { RandomBytes } from './position';
import { PROVIDER_REF, type ProviderRef } from './provider-ref';

/** The synced fields a session row holds. */
export type RowField = 'title' | 'title_source' | 'session_key' | 'ended_at' | 'end_reason' | 'parent_session_id' | 'parent_kind' | 'archived' | 'pinned' | 'provider' | 'model' | 'chat_settings' | 'assistant';
/** Every field that merges by its clock: the row's, the deletion, and the server and model the session used. */
export type ClockedField = RowField | 'deleted_at' | 'provider_ref';
/** The chat's settings, and the assistant it was started from, are null where the row has none. */
export type ClockedFields = Pick<SessionRow, Exclude<RowField, 'chat_settings' | 'assistant'>> & {
	chat_settings: ChatSettings | null;
	assistant: AssistantRef | null;
	deleted_at: number | null;
	provider_ref: ProviderRef | null;
};

/**
 * Fields added since documents were first written: a document (or a device) that never set one
 * leaves it out, and it reads as its value here with the lowest clock.
 */
export const LATER_FIELDS: Partial<ClockedFields> & Pick<ClockedFields, 'chat_settings' | 'assistant'> = { chat_settings: null, assistant: null };

const S = SESSION_SHAPE.required;
/** A chat's settings as synced: what does not fit refuses the document (see read-document.ts); none is null. */
const syncedChatSettings: Parse<ChatSettings | null> = (value, dropped) => (value === undefined || value === null ? null : (SESSION_SHAPE.optional.chat_settings(value, dropped) ?? null));
/** The assistant a chat was started from, as synced: one that does not fit refuses the document; none is null. */
const syncedAssistant: Parse<AssistantRef | null> = (value, dropped) => (value === undefined || value === null ? null : (SESSION_SHAPE.optional.assistant(value, dropped) ?? null));
/** How each synced field is read from a server: the row's own rules (the compiler checks it lists every field). */
export const CLOCKED_FIELDS_SHAPE: Shape<ClockedFields> = {
	required: {
		title: S.title,
		title_source: S.title_source,
		session_key: S.session_key,
		ended_at: S.ended_at,
		end_reason: S.end_reason,
		parent_session_id: S.parent_session_id,
		parent_kind: S.parent_kind,
		archived: S.archived,
		pinned: S.pinned,
		provider: S.provider,
		model: S.model,
		chat_settings: syncedChatSettings,
		assistant: syncedAssistant,
		deleted_at: nullable(S.created_at),
		provider_ref: nullable(PROVIDER_REF)
	},
	optional: {}
};

export const CLOCKED_FIELDS = Object.keys(CLOCKED_FIELDS_SHAPE.required) as ClockedField[];
export const ROW_FIELDS = CLOCKED_FIELDS.filter((field): field is RowField => field !== 'deleted_at' && field !== 'provider_ref');

/** The version on show at one place (see db/conversation.ts), with the clock of its choice. */
export interface ShownVersion {
	id: string;
	clock: string;
}

/**
 * A session as it syncs. `created_at` is the earliest, `last_activity_at` the latest; `shown`
 * merges per place; `purged_at` (the session deleted for good, everywhere) is final: once set,
 * nothing of the session comes back.
 */
export interface SessionDoc {
	session_id: string;
	created_at: number;
	last_activity_at: number;
	fields: ClockedFields;
	clocks: Record<ClockedField, string>;
	shown: Record<string, ShownVersion>;
	purged_at: number | null;
}

/** The greatest clock in a session document: what an edit made after seeing it must pass. */
export function latestClock(doc: SessionDoc): string {
	let latest = ZERO_CLOCK;
	for (const field of CLOCKED_FIELDS) if (doc.clocks[field] > latest) latest = doc.clocks[field];
	for (const entry of Object.values(doc.shown)) if (entry.clock > latest) latest = entry.clock;
	return latest;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface SessionEdit {
	/** When the edit was made (its clock's time). */
	at: number;
	random: RandomBytes;
	/** The server and model of the session's provider, as this device knows them. */
	providerRef?: ProviderRef | null;
	/** The user deleted the session here (its row is gone). */
	deleted?: boolean;
	/**
	 * Whether the row's provider is what `previous` says (another device's provider may be this
	 * device's under another id): an unchanged provider is not an edit.
	 */
	sameProvider?: (doc: SessionDoc, rowProvider: string) => boolean;
}

/**
 * The document of a session after this device's edits: `row` as it is here (null: deleted here),
 * over `previous` (the document as last merged here). Fields that differ take a clock past every
 * clock in it, so an edit made after seeing another device's edit wins over it. A row present
 * while `previous` says deleted is a restore.
 */
export function stampSession(sessionId: string, row: SessionRow | null, previous: SessionDoc | undefined, edit: SessionEdit): SessionDoc {
	if (previous && previous.session_id !== sessionId) throw new Error(`Session ${sessionId} stamped over the document of ${previous.session_id}.`);
	if (!row && !previous) throw new Error(`Session ${sessionId} has neither a row nor a document.`);
	if (previous?.purged_at != null) return previous;
	const wanted = {} as Record<ClockedField, unknown>;
	for (const field of ROW_FIELDS) wanted[field] = row ? (row[field] ?? null) : previous!.fields[field];
	wanted.deleted_at = row ? null : edit.deleted ? (previous?.fields.deleted_at ?? edit.at) : (previous?.fields.deleted_at ?? null);
	wanted.provider_ref = edit.providerRef === undefined ? (previous?.fields.provider_ref ?? null) : edit.providerRef;
	const unchanged = (field: ClockedField) => {
		// A field added since, never set: left at its lowest clock (and out of the body).
		if (!previous) return Object.hasOwn(LATER_FIELDS, field) && wanted[field] === null;
		if (field === 'provider' && row && edit.sameProvider) return edit.sameProvider(previous, row.provider);
		// The server of an unchanged provider is not an edit either: each device names it from its own settings.
		if (field === 'provider_ref' && row && edit.sameProvider) return edit.sameProvider(previous, row.provider) || same(previous.fields.provider_ref, wanted.provider_ref);
		return same(previous.fields[field], wanted[field]);
	};
	const changed = CLOCKED_FIELDS.filter((field) => !unchanged(field));
	const shownHere = row?.version_shown ?? {};
	const shownChanged = Object.keys(shownHere).filter((key) => previous?.shown[key]?.id !== shownHere[key]);
	const clock = changed.length || shownChanged.length ? nextClock([previous ? latestClock(previous) : undefined], edit.at, edit.random) : '';
	const fields = {} as Record<ClockedField, unknown>;
	const clocks = {} as Record<ClockedField, string>;
	for (const field of CLOCKED_FIELDS) {
		const fresh = changed.includes(field);
		fields[field] = fresh || !previous ? wanted[field] : previous.fields[field];
		clocks[field] = fresh ? clock : (previous?.clocks[field] ?? ZERO_CLOCK);
	}
	const shown = { ...previous?.shown };
	for (const key of shownChanged) shown[key] = { id: shownHere[key], clock };
	return {
		session_id: sessionId,
		created_at: Math.min(row?.created_at ?? Infinity, previous?.created_at ?? Infinity),
		last_activity_at: Math.max(row?.last_activity_at ?? 0, previous?.last_activity_at ?? 0),
		fields: fields as ClockedFields,
		clocks,
		shown,
		purged_at: null
	};
}

/** A session deleted for good at `at`: nothing of it is kept but the purge, the same on every device. */
export function purgedSession(sessionId: string, at: number): SessionDoc {
	const fields = { title: '', title_source: 'auto', session_key: '', ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: 0, pinned: 0, provider: '', model: '', chat_settings: null, assistant: null, deleted_at: null, provider_ref: null } satisfies ClockedFields;
	const clocks = Object.fromEntries(CLOCKED_FIELDS.map((name) => [name, ZERO_CLOCK])) as Record<ClockedField, string>;
	return { session_id: sessionId, created_at: 0, last_activity_at: 0, fields, clocks, shown: {}, purged_at: at };
}

/** `doc` deleted for good at `at`. */
export function purgeSession(doc: SessionDoc, at: number): SessionDoc {
	return purgedSession(doc.session_id, doc.purged_at ?? at);
}

/** The CouchDB body of a session document, with the revision it replaces (none for a new one). */
export function sessionToBody(doc: SessionDoc, rev?: string | null): Record<string, unknown> {
	const head = { _id: sessionDocId(doc.session_id), ...(rev ? { _rev: rev } : {}), format: DOCUMENT_FORMAT };
	// A purged session's content leaves the server: only the purge stays, so that it never comes back.
	if (doc.purged_at !== null) return { ...head, purged_at: doc.purged_at };
	// A field added since that was never set is left out, so a device of the app before it still reads the document.
	const unset = (Object.keys(LATER_FIELDS) as ClockedField[]).filter((field) => doc.clocks[field] === ZERO_CLOCK && doc.fields[field] === null);
	const fields: Record<string, unknown> = { ...doc.fields };
	const clocks: Record<string, string> = { ...doc.clocks };
	for (const field of unset) {
		delete fields[field];
		delete clocks[field];
	}
	return {
		...head,
		created_at: doc.created_at,
		last_activity_at: doc.last_activity_at,
		fields,
		clocks,
		...(Object.keys(doc.shown).length ? { shown: structuredClone(doc.shown) } : {})
	};
}

/** What a session document sets on this device's row (every other field of the row stays this device's). */
export function sessionRowFields(doc: SessionDoc): Pick<SessionRow, 'id' | 'created_at' | 'last_activity_at' | RowField> & { version_shown?: Record<string, string> } {
	const fields = {} as Record<RowField, unknown>;
	// No settings (or assistant) is no field on the row (the caller removes the row's own).
	for (const field of ROW_FIELDS) if (doc.fields[field] !== null || !Object.hasOwn(LATER_FIELDS, field)) fields[field] = doc.fields[field];
	const shown = Object.fromEntries(Object.entries(doc.shown).map(([key, entry]) => [key, entry.id]));
	return {
		id: doc.session_id,
		created_at: doc.created_at,
		last_activity_at: doc.last_activity_at,
		...(fields as Pick<SessionRow, RowField>),
		...(Object.keys(shown).length ? { version_shown: shown } : {})
	};
}

/** A document as kept here before fields were added to documents: those fields unset, with the lowest clock. */
export function completeSessionDoc(doc: SessionDoc): SessionDoc {
	const missing = (Object.keys(LATER_FIELDS) as ClockedField[]).filter((field) => !Object.hasOwn(doc.clocks, field));
	if (!missing.length) return doc;
	const fields = { ...doc.fields } as Record<ClockedField, unknown>;
	const clocks = { ...doc.clocks };
	for (const field of missing) {
		fields[field] = LATER_FIELDS[field as keyof typeof LATER_FIELDS] ?? null;
		clocks[field] = ZERO_CLOCK;
	}
	return { ...doc, fields: fields as ClockedFields, clocks };
}
