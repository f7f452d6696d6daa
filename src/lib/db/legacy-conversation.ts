// Rows written before rows recorded their rank and branch (a profile upgraded from schema 11, or
// an imported file), given what conversation.ts derives from: a rank that keeps the order shown,
// the branch of each row from the versions the session kept by number, and a retirement for a
// row that was inactive for no reason a row records. What such a session shows stays as it was.
// Pure: the same rows give the same result on every device, so two devices that upgrade one
// synced session agree.
import { deriveConversation, FIRST_VERSION, placeKey, withState } from './conversation';
import { ranksInOrder } from './rank';
import type { BranchTag, MessageRow, SessionRow } from './schema';

const DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The id of version `number` of a place, as a session kept it before ids: below every id made since. */
export function legacyVersionId(number: number): string {
	let text = '';
	for (let value = Math.max(1, Math.floor(number)); value > 0; value = Math.floor(value / 32)) text = DIGITS[value % 32] + text;
	return text.padStart(FIRST_VERSION.length, '0');
}

/** `rows` (all of the session's, in seq order) and the session's chosen versions, as rows record them now. */
export function adoptLegacyRows(session: Pick<SessionRow, 'versions'> | undefined, rows: readonly MessageRow[]): { rows: MessageRow[]; version_shown?: Record<string, string>; state: Pick<SessionRow, 'versions' | 'tip'> } {
	const ranks = ranksInOrder(rows.map((row) => row.position));
	const positionOf = new Map(rows.map((row) => [row.seq, row.position]));
	const branches: (BranchTag | undefined)[] = rows.map(() => undefined);
	const shown: Record<string, string> = {};
	// Outer places first: a row after a deeper place then takes the deeper one's version.
	const points = [...(session?.versions ?? [])].sort((a, b) => (a.after ?? -Infinity) - (b.after ?? -Infinity));
	for (const point of points) {
		const at = point.after === null ? null : positionOf.get(point.after);
		if (at === undefined) continue;
		shown[placeKey(at)] = legacyVersionId(point.shown);
		rows.forEach((row, index) => {
			if (!row.shelved && (point.after === null || row.seq > point.after)) branches[index] = { at, id: legacyVersionId(point.shown) };
		});
	}
	rows.forEach((row, index) => {
		if (!row.shelved) return;
		const at = row.shelved.after === null ? null : positionOf.get(row.shelved.after);
		if (at !== undefined) branches[index] = { at, id: legacyVersionId(row.shelved.version) };
	});
	const adopted = rows.map((row, index): MessageRow => {
		const { branch: _branch, ...rest } = row;
		const branch = branches[index];
		// Inactive, yet on no version put away and covered by nothing: it stays out of the context.
		const retired = row.active === 0 && !row.shelved && (row.compacted_by ?? null) === null && row.retired_by === undefined;
		return { ...rest, rank: ranks[index], ...(branch ? { branch } : {}), ...(retired ? { retired_by: 'inactive' } : {}) };
	});
	const conversation = deriveConversation(shown, adopted);
	return {
		rows: adopted.map((row, index) => withState(row, conversation.rows[index])),
		...(Object.keys(shown).length ? { version_shown: shown } : {}),
		state: { versions: conversation.versions.length ? conversation.versions : undefined, tip: conversation.tip }
	};
}
