// Merges two versions of a session document (this device's and the server's, or two conflicting
// revisions). Commutative, associative and idempotent, so devices that exchange documents in
// any order, any number of times, end with the same session.
import { CLOCKED_FIELDS, purgedSession, type ClockedField, type ClockedFields, type SessionDoc, type ShownVersion } from './session-document';

/** A total order on field values, so equal clocks still pick the same value on every device. */
export function compareValues(a: unknown, b: unknown): number {
	const [x, y] = [JSON.stringify(a ?? null), JSON.stringify(b ?? null)];
	return x < y ? -1 : x > y ? 1 : 0;
}

function laterShown(a: ShownVersion | undefined, b: ShownVersion | undefined): ShownVersion {
	if (!a) return b!;
	if (!b) return a;
	if (a.clock !== b.clock) return a.clock > b.clock ? a : b;
	return a.id >= b.id ? a : b;
}

/**
 * Per field, the value with the greater clock (equal clocks: the greater value); per place, the
 * version chosen last; `last_activity_at` the latest and `created_at` the earliest; a purge,
 * once made anywhere, holds (the earliest), and then nothing else is kept.
 */
export function mergeSessionDocs(a: SessionDoc, b: SessionDoc): SessionDoc {
	if (a.session_id !== b.session_id) throw new Error(`Cannot merge session ${a.session_id} with session ${b.session_id}.`);
	const purges = [a.purged_at, b.purged_at].filter((at): at is number => at !== null);
	if (purges.length) return purgedSession(a.session_id, Math.min(...purges));
	const fields = {} as Record<ClockedField, unknown>;
	const clocks = {} as Record<ClockedField, string>;
	for (const name of CLOCKED_FIELDS) {
		const [clockA, clockB] = [a.clocks[name], b.clocks[name]];
		const takeB = clockB > clockA || (clockB === clockA && compareValues(b.fields[name], a.fields[name]) > 0);
		fields[name] = takeB ? b.fields[name] : a.fields[name];
		clocks[name] = takeB ? clockB : clockA;
	}
	const shown: Record<string, ShownVersion> = {};
	for (const key of [...new Set([...Object.keys(a.shown), ...Object.keys(b.shown)])].sort()) shown[key] = laterShown(a.shown[key], b.shown[key]);
	return {
		session_id: a.session_id,
		created_at: Math.min(a.created_at, b.created_at),
		last_activity_at: Math.max(a.last_activity_at, b.last_activity_at),
		fields: fields as ClockedFields,
		clocks,
		shown,
		purged_at: null
	};
}

/** Whether two session documents say the same thing, whatever order their keys came in. */
export function sameSession(a: SessionDoc, b: SessionDoc): boolean {
	return (
		a.session_id === b.session_id &&
		a.created_at === b.created_at &&
		a.last_activity_at === b.last_activity_at &&
		a.purged_at === b.purged_at &&
		CLOCKED_FIELDS.every((field) => a.clocks[field] === b.clocks[field] && compareValues(a.fields[field], b.fields[field]) === 0) &&
		JSON.stringify(sortedShown(a)) === JSON.stringify(sortedShown(b))
	);
}

function sortedShown(doc: SessionDoc): [string, ShownVersion][] {
	return Object.keys(doc.shown)
		.sort()
		.map((key) => [key, { id: doc.shown[key].id, clock: doc.shown[key].clock }]);
}
