// Which rows of a session are in its conversation, and which version is on show at each place:
// one deterministic function of what every device holds alike (the rows' branches, what covered
// them, what retired them, and the session's chosen versions), so every device that holds the
// same rows shows the same conversation and sends the model the same context. The local verbs
// call it after changing any of that, and sync after writing what arrived; `active`, `shelved`,
// `versions` and `tip` are its results, kept on the rows as a cache. Pure.
import type { BranchTag, MessageRow, VersionPoint } from './schema';

/** The id of the first version at any place: the conversation as it was before the first edit there. */
export const FIRST_VERSION = '0'.repeat(25) + '1';

/** The fields of a row the conversation is derived from (and the two it sets). */
export type ConversationRow = Pick<MessageRow, 'seq' | 'position' | 'compacted_by' | 'active'> &
	Partial<Pick<MessageRow, 'branch' | 'retired_by' | 'compaction' | 'shelved'>>;

/** What the conversation says of one row. */
export interface RowState {
	active: 0 | 1;
	shelved?: { after: number | null; version: number };
}

/** A place where the conversation has versions. */
export interface Place {
	/** The position of the row the versions follow, or '' for the very start. */
	key: string;
	/** That row's seq (null: the very start; undefined: the row is gone). */
	after: number | null | undefined;
	/** Every version's id, in the order they were made. */
	ids: string[];
	shown: string;
	/** Whether the row it follows is on show (the very start always is). */
	visible: boolean;
}

export interface Conversation {
	/** One per row, in the order given. */
	rows: RowState[];
	places: Place[];
	/** Where there is more than one version, as the session row keeps it. */
	versions: VersionPoint[];
	/** The branch a row appended at the end belongs to (none where there are no versions). */
	tip?: BranchTag;
}

export const placeKey = (at: string | null): string => at ?? '';

/**
 * The conversation of a session whose rows are `rows`, given in the order shown (seq order), and
 * whose chosen versions are `shown` (by place key). A row is active when it is on show (its
 * branch is the version shown at its place, and the row that place follows is on show), not
 * covered by a compaction still in effect, and not retired. A place with no chosen version
 * shows its latest one.
 */
export function deriveConversation(shown: Readonly<Record<string, string>> | undefined, rows: readonly ConversationRow[]): Conversation {
	const byPosition = new Map(rows.map((row, at) => [row.position, at]));
	const undone = new Set<string>();
	for (const row of rows) if (row.compaction?.undone_at !== undefined) undone.add(row.compaction.id);

	const idsAt = new Map<string, Set<string>>();
	const add = (key: string, id: string) => {
		let ids = idsAt.get(key);
		if (!ids) idsAt.set(key, (ids = new Set()));
		ids.add(id);
	};
	for (const row of rows) if (row.branch) add(placeKey(row.branch.at), row.branch.id);
	for (const [key, id] of Object.entries(shown ?? {})) add(key, id);
	const sortedIds = new Map([...idsAt].map(([key, ids]) => [key, [...ids].sort()]));
	const shownAt = (key: string) => {
		const chosen = shown?.[key];
		return chosen !== undefined && Object.hasOwn(shown!, key) ? chosen : sortedIds.get(key)!.at(-1)!;
	};

	// On show: memoised along each row's chain of places; a chain that loops (only a hostile
	// document could make one) is not on show.
	const visible = new Map<number, boolean>();
	const onShow = (at: number, path: Set<number>): boolean => {
		const known = visible.get(at);
		if (known !== undefined) return known;
		const branch = rows[at].branch;
		let result = true;
		if (branch) {
			if (shownAt(placeKey(branch.at)) !== branch.id) result = false;
			else if (branch.at !== null) {
				const place = byPosition.get(branch.at);
				if (place !== undefined) {
					if (path.has(place) || place === at) result = false;
					else {
						path.add(at);
						result = onShow(place, path);
						path.delete(at);
					}
				}
			}
		}
		visible.set(at, result);
		return result;
	};

	const states: RowState[] = rows.map((row, at) => {
		const seen = onShow(at, new Set());
		const covered = row.compacted_by !== null && row.compacted_by !== undefined && !undone.has(row.compacted_by);
		const active = seen && !covered && row.retired_by === undefined ? 1 : 0;
		if (seen || !row.branch) return { active };
		const key = placeKey(row.branch.at);
		const place = row.branch.at === null ? null : byPosition.get(row.branch.at);
		return { active, shelved: { after: place === null ? null : place === undefined ? null : rows[place].seq, version: sortedIds.get(key)!.indexOf(row.branch.id) + 1 } };
	});

	const places: Place[] = [...sortedIds].map(([key, ids]) => {
		const at = key === '' ? null : byPosition.get(key);
		return { key, after: at === null ? null : at === undefined ? undefined : rows[at].seq, ids, shown: shownAt(key), visible: at === null || (at !== undefined && onShow(at, new Set())) };
	});
	const versions = places
		.filter((place) => place.ids.length > 1 && place.after !== undefined)
		.map((place): VersionPoint => ({ after: place.after!, shown: place.ids.indexOf(place.shown) + 1, count: place.ids.length }))
		.sort((a, b) => (a.after ?? -Infinity) - (b.after ?? -Infinity));
	const tip = tagAt(places, Infinity);
	return { rows: states, places, versions, ...(tip ? { tip } : {}) };
}

/** The branch of a row placed before the row with seq `before` (Infinity: at the end): the innermost place on show before it. */
export function tagAt(places: readonly Place[], before: number): BranchTag | undefined {
	let best: Place | undefined;
	for (const place of places) {
		if (!place.visible || place.after === undefined) continue;
		const at = place.after ?? -Infinity;
		if (at >= before) continue;
		if (!best || at > (best.after ?? -Infinity)) best = place;
	}
	return best ? { at: best.key === '' ? null : best.key, id: best.shown } : undefined;
}

/** Whether a row's derived fields differ from what it holds. */
export function stateChanged(row: ConversationRow, state: RowState): boolean {
	return row.active !== state.active || JSON.stringify(row.shelved ?? null) !== JSON.stringify(state.shelved ?? null);
}

/** `row` with the derived fields of `state`. */
export function withState<R extends ConversationRow>(row: R, state: RowState): R {
	const { shelved: _old, ...rest } = row;
	return (state.shelved ? { ...rest, active: state.active, shelved: state.shelved } : { ...rest, active: state.active }) as R;
}

/** Whether the session's derived fields (versions, tip) differ from `conversation`. */
export function sessionStateChanged(session: { versions?: VersionPoint[]; tip?: BranchTag }, conversation: Conversation): boolean {
	return JSON.stringify(session.versions ?? []) !== JSON.stringify(conversation.versions) || JSON.stringify(session.tip ?? null) !== JSON.stringify(conversation.tip ?? null);
}
