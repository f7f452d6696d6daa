// The question asked before a deletion. It names every session the deletion will take: the
// chosen ones and those that go with them (the rest of a compacted conversation, sub-agents),
// so nothing goes that the user was not shown.
import type { PalimpsestDb } from '../../db/database';
import type { SessionRow } from '../../db/schema';
import { readFamily } from '../../sessions/read-family';
import type { ConfirmRequest, Wording } from '../shared/confirm.svelte';

/** Sessions listed by name; past this, "and N more". */
export const LISTED_SESSIONS = 10;
const TITLE_CHARS = 80;

export interface DeletionPlan {
	/** What the user chose, in their order. */
	named: readonly string[];
	/** Every session the deletion takes: the chosen ones first, then those that go with them. */
	taken: readonly Pick<SessionRow, 'id' | 'title' | 'end_reason' | 'parent_kind'>[];
}

/** The title in quotes, shortened; the title itself a part of its own, shown isolated. */
function quoted(title: string): Wording {
	const short = title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title;
	return ['“', { title: short }, '”'];
}

function describeTaken(row: DeletionPlan['taken'][number]): Wording {
	const note = row.end_reason === 'compression' ? ' (earlier part of the conversation)' : row.parent_kind === 'delegate' ? ' (sub-agent)' : '';
	return [...quoted(row.title), note];
}

/** The session titles a dialog lists, bounded: the first few, then "and N more". */
export function listTitles(taken: DeletionPlan['taken']): Wording[] {
	const shown = taken.length > LISTED_SESSIONS ? taken.slice(0, LISTED_SESSIONS - 1) : taken;
	const items = shown.map(describeTaken);
	if (shown.length < taken.length) items.push(`and ${(taken.length - shown.length).toLocaleString('en')} more`);
	return items;
}

export function deletionPrompt(plan: DeletionPlan, { exiting = false } = {}): ConfirmRequest {
	const { named, taken } = plan;
	const base = { confirmLabel: 'Delete', danger: true } as const;
	if (taken.length <= 1) {
		const title = quoted(taken[0]?.title ?? 'This session');
		return {
			...base,
			title: named.length > 1 ? `Delete these ${named.length} sessions?` : 'Delete this session?',
			message: [...title, exiting ? ' will be ended and deleted with all its messages. This cannot be undone.' : ' and all its messages will be deleted. This cannot be undone.']
		};
	}
	const n = taken.length;
	const linked = n > named.length;
	return {
		...base,
		title: !linked && named.length > 1 ? `Delete these ${n} sessions?` : `Delete ${n} sessions?`,
		message: `${linked ? `${named.length === 1 ? 'This session goes' : 'These sessions go'} with the sessions linked to ${named.length === 1 ? 'it' : 'them'} (the rest of a compacted conversation, or its sub-agents). ` : ''}${exiting ? `These ${n} sessions will be ended and deleted with all their messages.` : `These ${n} sessions and all their messages will be deleted.`} This cannot be undone.`,
		items: listTitles(taken),
		itemsLabel: 'Sessions to delete'
	};
}

/** Reads what deleting `ids` would take, as the deletion itself will, and words the question. */
export async function planDeletionPrompt(db: PalimpsestDb, ids: readonly string[], options: { exiting?: boolean } = {}): Promise<ConfirmRequest> {
	const family = await readFamily(db, ids);
	const taken = family.closureOf(ids).map((id) => family.get(id)!);
	return deletionPrompt({ named: ids, taken }, options);
}
