// Merges two versions of a session document (this device's and the server's, or two conflicting
// revisions). Commutative, associative and idempotent, so devices that exchange documents in
// any order, any number of times, end with the same session.
import { CLOCKED_FIELDS, type ClockedField, type ClockedFields, type SessionDoc } from './session-document';

/** A total order on field values, so equal clocks still pick the same value on every device. */
function compareValues(a: unknown, b: unknown): number {
	const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
	return x < y ? -1 : x > y ? 1 : 0;
}

function earliestDeletion(a: number | null, b: number | null): number | null {
	if (a === null) return b;
	if (b === null) return a;
	return Math.min(a, b);
}

/**
 * Per field, the value with the greater clock (equal clocks: the greater value); `deleted_at`
 * is the earliest deletion, so a deleted session stays deleted whatever edits arrive after;
 * `last_activity_at` the latest and `created_at` the earliest.
 */
export function mergeSessionDocs(a: SessionDoc, b: SessionDoc): SessionDoc {
	if (a.session_id !== b.session_id) throw new Error(`Cannot merge session ${a.session_id} with session ${b.session_id}.`);
	const fields = {} as Record<ClockedField, unknown>;
	const clocks = {} as Record<ClockedField, string>;
	for (const name of CLOCKED_FIELDS) {
		const [clockA, clockB] = [a.clocks[name], b.clocks[name]];
		const takeB = clockB > clockA || (clockB === clockA && compareValues(b.fields[name], a.fields[name]) > 0);
		fields[name] = takeB ? b.fields[name] : a.fields[name];
		clocks[name] = takeB ? clockB : clockA;
	}
	return {
		session_id: a.session_id,
		created_at: Math.min(a.created_at, b.created_at),
		last_activity_at: Math.max(a.last_activity_at, b.last_activity_at),
		deleted_at: earliestDeletion(a.deleted_at, b.deleted_at),
		fields: fields as ClockedFields,
		clocks
	};
}
