// A saved prompt as it syncs: its name and text, each with the clock of its last edit (merged as
// a session's fields are), under an id that is the prompt's random id, so the server learns
// nothing of it from the id (with a sync passphrase its body is sealed like every other). A
// deletion leaves a tombstone: once deleted anywhere, a prompt is gone everywhere, and nothing of
// its name or text stays on the server. Pure.
import type { PromptRow } from '../db/schema';
import { nextClock, ZERO_CLOCK } from './clock';
import { compareValues } from './merge-session';
import { DOCUMENT_FORMAT, promptDocId } from './document-ids';
import type { RandomBytes } from './position';

export const PROMPT_FIELDS = ['name', 'text'] as const;
export type PromptField = (typeof PROMPT_FIELDS)[number];

export interface PromptDoc {
	prompt_id: string;
	created_at: number;
	/** The latest edit's time, as this device shows it. */
	updated_at: number;
	fields: Pick<PromptRow, PromptField>;
	clocks: Record<PromptField, string>;
	/** Set once the prompt was deleted (the earliest deletion): then nothing else of it is kept. */
	deleted_at: number | null;
}

/** The tombstone of a prompt deleted at `at`: the same on every device, and nothing of what it said. */
export function deletedPrompt(promptId: string, at: number): PromptDoc {
	return { prompt_id: promptId, created_at: 0, updated_at: 0, fields: { name: '', text: '' }, clocks: { name: ZERO_CLOCK, text: ZERO_CLOCK }, deleted_at: at };
}

function latestClock(doc: PromptDoc): string {
	return doc.clocks.name > doc.clocks.text ? doc.clocks.name : doc.clocks.text;
}

/**
 * The document of a prompt after this device's edits: `row` as it is here (null: deleted here)
 * over `previous` (the document as last merged here, if any). A field that differs takes a clock
 * past every clock in it, so an edit made after seeing another device's wins over it.
 */
export function stampPrompt(promptId: string, row: PromptRow | null, previous: PromptDoc | undefined, edit: { at: number; random: RandomBytes }): PromptDoc | undefined {
	if (previous?.deleted_at != null) return previous;
	if (!row) return previous ? deletedPrompt(promptId, edit.at) : undefined;
	const changed = PROMPT_FIELDS.filter((field) => !previous || previous.fields[field] !== row[field]);
	const clock = changed.length ? nextClock([previous ? latestClock(previous) : undefined], edit.at, edit.random) : '';
	const fields = { name: row.name, text: row.text };
	const clocks = { name: changed.includes('name') ? clock : previous!.clocks.name, text: changed.includes('text') ? clock : previous!.clocks.text };
	return {
		prompt_id: promptId,
		created_at: Math.min(row.created_at, previous?.created_at ?? Infinity),
		updated_at: Math.max(row.updated_at, previous?.updated_at ?? 0),
		fields,
		clocks,
		deleted_at: null
	};
}

/** Per field, the value with the greater clock (equal clocks: the greater value); a deletion made anywhere holds. Commutative, associative, idempotent. */
export function mergePromptDocs(a: PromptDoc, b: PromptDoc): PromptDoc {
	if (a.prompt_id !== b.prompt_id) throw new Error(`Cannot merge prompt ${a.prompt_id} with prompt ${b.prompt_id}.`);
	const deletions = [a.deleted_at, b.deleted_at].filter((at): at is number => at !== null);
	if (deletions.length) return deletedPrompt(a.prompt_id, Math.min(...deletions));
	const fields = { ...a.fields };
	const clocks = { ...a.clocks };
	for (const name of PROMPT_FIELDS) {
		const takeB = b.clocks[name] > a.clocks[name] || (b.clocks[name] === a.clocks[name] && compareValues(b.fields[name], a.fields[name]) > 0);
		if (!takeB) continue;
		fields[name] = b.fields[name];
		clocks[name] = b.clocks[name];
	}
	return { prompt_id: a.prompt_id, created_at: Math.min(a.created_at, b.created_at), updated_at: Math.max(a.updated_at, b.updated_at), fields, clocks, deleted_at: null };
}

export function samePrompt(a: PromptDoc, b: PromptDoc): boolean {
	return (
		a.prompt_id === b.prompt_id &&
		a.deleted_at === b.deleted_at &&
		a.created_at === b.created_at &&
		a.updated_at === b.updated_at &&
		PROMPT_FIELDS.every((name) => a.clocks[name] === b.clocks[name] && a.fields[name] === b.fields[name])
	);
}

/** The CouchDB body of a prompt document, with the revision it replaces (none for a new one). */
export function promptToBody(doc: PromptDoc, rev?: string | null): Record<string, unknown> {
	const head = { _id: promptDocId(doc.prompt_id), ...(rev ? { _rev: rev } : {}), format: DOCUMENT_FORMAT };
	if (doc.deleted_at !== null) return { ...head, deleted_at: doc.deleted_at };
	return { ...head, created_at: doc.created_at, updated_at: doc.updated_at, fields: { ...doc.fields }, clocks: { ...doc.clocks } };
}

/** The row a live prompt document gives this device. */
export function promptRowOf(doc: PromptDoc): PromptRow {
	return { id: doc.prompt_id, name: doc.fields.name, text: doc.fields.text, created_at: doc.created_at, updated_at: doc.updated_at };
}
