// The synced part of a session and its CouchDB body: the fields listed here and nothing else.
// Its profile, counts, next seq, compaction cooldowns, token ratio, import origin and versions
// on show are this device's own, kept or derived here and never sent.
import type { SessionRow } from '../db/schema';
import { SESSION_SHAPE } from '../sessions/import-rows';
import type { Shape } from '../sessions/import-schema';
import { DOCUMENT_FORMAT, sessionDocId } from './document-ids';
import { nextPosition, type RandomBytes } from './position';

export type ClockedField = 'title' | 'title_source' | 'session_key' | 'ended_at' | 'end_reason' | 'parent_session_id' | 'parent_kind' | 'archived' | 'pinned' | 'provider' | 'model';
export type ClockedFields = Pick<SessionRow, ClockedField>;

const S = SESSION_SHAPE.required;
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
		model: S.model
	},
	optional: {}
};

/** Every field that merges by its clock: each was last set by the edit with the greatest clock. */
export const CLOCKED_FIELDS = Object.keys(CLOCKED_FIELDS_SHAPE.required) as ClockedField[];

/**
 * A session as it syncs. Each field in `fields` has its clock (an HLC string, as positions are)
 * in `clocks`; `created_at` is the earliest, `last_activity_at` the latest, and `deleted_at`
 * the earliest deletion ever seen, which no later edit undoes.
 */
export interface SessionDoc {
	session_id: string;
	created_at: number;
	last_activity_at: number;
	deleted_at: number | null;
	fields: ClockedFields;
	clocks: Record<ClockedField, string>;
}

/** The greatest clock in a session document: what an edit made after seeing it must pass. */
export function latestClock(doc: SessionDoc): string {
	let latest = '';
	for (const field of CLOCKED_FIELDS) if (doc.clocks[field] > latest) latest = doc.clocks[field];
	return latest;
}

/**
 * The document of `row` after this device's edits: fields that differ from `previous` (the
 * document as last synced and merged here) take a new clock past every clock in it, so an
 * edit made after seeing another device's edit wins over it. `deletedAt` marks a deletion.
 */
export function stampSession(row: SessionRow, previous: SessionDoc | undefined, now: number, random: RandomBytes, deletedAt: number | null = null): SessionDoc {
	const fields = {} as Record<ClockedField, unknown>;
	for (const field of CLOCKED_FIELDS) fields[field] = row[field];
	if (previous && previous.session_id !== row.id) throw new Error(`Session ${row.id} stamped over the document of ${previous.session_id}.`);
	const changed = CLOCKED_FIELDS.filter((field) => !previous || !Object.is(previous.fields[field], row[field]));
	const clock = changed.length ? nextPosition(previous ? latestClock(previous) || undefined : undefined, now, random) : '';
	const clocks = {} as Record<ClockedField, string>;
	for (const field of CLOCKED_FIELDS) clocks[field] = changed.includes(field) ? clock : previous!.clocks[field];
	const deletions = [previous?.deleted_at ?? null, deletedAt].filter((at): at is number => at !== null);
	return {
		session_id: row.id,
		created_at: Math.min(row.created_at, previous?.created_at ?? Infinity),
		last_activity_at: Math.max(row.last_activity_at, previous?.last_activity_at ?? 0),
		deleted_at: deletions.length ? Math.min(...deletions) : null,
		fields: fields as ClockedFields,
		clocks
	};
}

/** The CouchDB body of a session document, with the revision it replaces (none for a new one). */
export function sessionToBody(doc: SessionDoc, rev?: string): Record<string, unknown> {
	return {
		_id: sessionDocId(doc.session_id),
		...(rev === undefined ? {} : { _rev: rev }),
		format: DOCUMENT_FORMAT,
		created_at: doc.created_at,
		last_activity_at: doc.last_activity_at,
		deleted_at: doc.deleted_at,
		fields: { ...doc.fields },
		clocks: { ...doc.clocks }
	};
}

/** What a session document sets on this device's row (every other field of the row stays this device's). */
export function sessionRowFields(doc: SessionDoc): Pick<SessionRow, 'id' | 'created_at' | 'last_activity_at' | ClockedField> {
	return { id: doc.session_id, created_at: doc.created_at, last_activity_at: doc.last_activity_at, ...doc.fields };
}
