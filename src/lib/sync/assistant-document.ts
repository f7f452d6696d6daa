// An assistant as it syncs: its name, model, chat settings and starter prompts, each with the
// clock of its last edit (merged as a session's fields are), under an id that is the assistant's
// random id, so the server learns nothing of it from the id (with a sync passphrase its body is
// sealed like every other). A deletion leaves a tombstone: once deleted anywhere, an assistant is
// gone everywhere, and nothing of what it said stays on the server. Pure.
import type { AssistantRow, ChatSettings } from '../db/schema';
import { nextClock, ZERO_CLOCK } from './clock';
import { compareValues } from './merge-session';
import { ASSISTANT_PREFIX, DOCUMENT_FORMAT, isSessionId } from './document-ids';
import type { RandomBytes } from './position';

export const ASSISTANT_FIELDS = ['name', 'provider', 'model', 'chat_settings', 'starters'] as const;
export type AssistantField = (typeof ASSISTANT_FIELDS)[number];

/** The synced fields of an assistant: no chat settings is null. */
export type AssistantFields = Pick<AssistantRow, Exclude<AssistantField, 'chat_settings'>> & { chat_settings: ChatSettings | null };

export interface AssistantDoc {
	assistant_id: string;
	created_at: number;
	/** The latest edit's time, as this device shows it. */
	updated_at: number;
	fields: AssistantFields;
	clocks: Record<AssistantField, string>;
	/** Set once the assistant was deleted (the earliest deletion): then nothing else of it is kept. */
	deleted_at: number | null;
}

/** The id of an assistant's document: its random id, as a session's is. */
export function assistantDocId(assistantId: string): string {
	if (!isSessionId(assistantId)) throw new Error(`Not an assistant id that syncs: ${JSON.stringify(assistantId)}.`);
	return ASSISTANT_PREFIX + assistantId;
}

const zeroClocks = (): Record<AssistantField, string> => Object.fromEntries(ASSISTANT_FIELDS.map((field) => [field, ZERO_CLOCK])) as Record<AssistantField, string>;

/** The tombstone of an assistant deleted at `at`: the same on every device, and nothing of what it said. */
export function deletedAssistant(assistantId: string, at: number): AssistantDoc {
	return { assistant_id: assistantId, created_at: 0, updated_at: 0, fields: { name: '', provider: '', model: '', chat_settings: null, starters: [] }, clocks: zeroClocks(), deleted_at: at };
}

function latestClock(doc: AssistantDoc): string {
	return ASSISTANT_FIELDS.reduce((latest, field) => (doc.clocks[field] > latest ? doc.clocks[field] : latest), ZERO_CLOCK);
}

const same = (a: unknown, b: unknown) => compareValues(a, b) === 0;

/** The synced fields of a row. */
function fieldsOf(row: AssistantRow): AssistantFields {
	return { name: row.name, provider: row.provider, model: row.model, chat_settings: row.chat_settings ?? null, starters: [...row.starters] };
}

/**
 * The document of an assistant after this device's edits: `row` as it is here (null: deleted
 * here) over `previous` (the document as last merged here, if any). A field that differs takes a
 * clock past every clock in it, so an edit made after seeing another device's wins over it.
 */
export function stampAssistant(assistantId: string, row: AssistantRow | null, previous: AssistantDoc | undefined, edit: { at: number; random: RandomBytes }): AssistantDoc | undefined {
	if (previous?.deleted_at != null) return previous;
	if (!row) return previous ? deletedAssistant(assistantId, edit.at) : undefined;
	const fields = fieldsOf(row);
	const changed = ASSISTANT_FIELDS.filter((field) => !previous || !same(previous.fields[field], fields[field]));
	const clock = changed.length ? nextClock([previous ? latestClock(previous) : undefined], edit.at, edit.random) : '';
	const clocks = Object.fromEntries(ASSISTANT_FIELDS.map((field) => [field, changed.includes(field) ? clock : previous!.clocks[field]])) as Record<AssistantField, string>;
	return {
		assistant_id: assistantId,
		created_at: Math.min(row.created_at, previous?.created_at ?? Infinity),
		updated_at: Math.max(row.updated_at, previous?.updated_at ?? 0),
		fields,
		clocks,
		deleted_at: null
	};
}

/** Per field, the value with the greater clock (equal clocks: the greater value); a deletion made anywhere holds. Commutative, associative, idempotent. */
export function mergeAssistantDocs(a: AssistantDoc, b: AssistantDoc): AssistantDoc {
	if (a.assistant_id !== b.assistant_id) throw new Error(`Cannot merge assistant ${a.assistant_id} with assistant ${b.assistant_id}.`);
	const deletions = [a.deleted_at, b.deleted_at].filter((at): at is number => at !== null);
	if (deletions.length) return deletedAssistant(a.assistant_id, Math.min(...deletions));
	const fields = { ...a.fields } as Record<AssistantField, unknown>;
	const clocks = { ...a.clocks };
	for (const name of ASSISTANT_FIELDS) {
		const takeB = b.clocks[name] > a.clocks[name] || (b.clocks[name] === a.clocks[name] && compareValues(b.fields[name], a.fields[name]) > 0);
		if (!takeB) continue;
		fields[name] = b.fields[name];
		clocks[name] = b.clocks[name];
	}
	return { assistant_id: a.assistant_id, created_at: Math.min(a.created_at, b.created_at), updated_at: Math.max(a.updated_at, b.updated_at), fields: fields as AssistantFields, clocks, deleted_at: null };
}

export function sameAssistant(a: AssistantDoc, b: AssistantDoc): boolean {
	return (
		a.assistant_id === b.assistant_id &&
		a.deleted_at === b.deleted_at &&
		a.created_at === b.created_at &&
		a.updated_at === b.updated_at &&
		ASSISTANT_FIELDS.every((name) => a.clocks[name] === b.clocks[name] && same(a.fields[name], b.fields[name]))
	);
}

/** The CouchDB body of an assistant's document, with the revision it replaces (none for a new one). */
export function assistantToBody(doc: AssistantDoc, rev?: string | null): Record<string, unknown> {
	const head = { _id: assistantDocId(doc.assistant_id), ...(rev ? { _rev: rev } : {}), format: DOCUMENT_FORMAT };
	if (doc.deleted_at !== null) return { ...head, deleted_at: doc.deleted_at };
	return { ...head, created_at: doc.created_at, updated_at: doc.updated_at, fields: structuredClone(doc.fields), clocks: { ...doc.clocks } };
}

/** The row a live assistant document gives this device. */
export function assistantRowOf(doc: AssistantDoc): AssistantRow {
	const { chat_settings, ...fields } = doc.fields;
	return { id: doc.assistant_id, ...structuredClone(fields), ...(chat_settings ? { chat_settings: structuredClone(chat_settings) } : {}), created_at: doc.created_at, updated_at: doc.updated_at };
}
