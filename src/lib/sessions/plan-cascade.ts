// Which sessions go together (pure). A compression lineage is one conversation cut into links,
// so any link takes the whole chain with it; a delegate (sub-agent) session belongs to the
// session that started it; a branch is the user's own new conversation and stays, detached.
// Links are followed only between sessions of one origin (made here, or brought in by the same
// import), so no file can tie a session of yours to one it brought.
import type { ParentKind, SessionRow } from '../db/schema';
import { sameOrigin } from '../db/session-links';

export type SessionLink = Pick<SessionRow, 'id' | 'parent_session_id' | 'parent_kind' | 'import_id'>;

/** Whether a child is deleted or archived along with its parent. */
export function goesWithParent(kind: ParentKind | null): boolean {
	return kind === 'compression' || kind === 'delegate';
}

/** Whether a session takes its parent along: a later link of a compression lineage does. */
export function takesParent(row: SessionLink): boolean {
	return row.parent_kind === 'compression' && row.parent_session_id !== null;
}

export class SessionFamily<R extends SessionLink = SessionLink> {
	readonly #rows = new Map<string, R>();
	readonly #children = new Map<string, R[]>();

	constructor(rows: Iterable<R>) {
		for (const row of rows) this.#rows.set(row.id, row);
		for (const row of this.#rows.values()) {
			if (row.parent_session_id === null) continue;
			const siblings = this.#children.get(row.parent_session_id) ?? [];
			siblings.push(row);
			this.#children.set(row.parent_session_id, siblings);
		}
	}

	get(id: string): R | undefined {
		return this.#rows.get(id);
	}

	childrenOf(id: string): R[] {
		return this.#children.get(id) ?? [];
	}

	/**
	 * `ids` and everything that goes with them: their compression lineages (both ways) and their
	 * delegate descendants, transitively, each of the same origin as the session it goes with.
	 * Known ids only; the given ones first, in their order.
	 */
	closureOf(ids: Iterable<string>): string[] {
		const seen = new Set<string>();
		const queue: string[] = [];
		const add = (id: string | null) => {
			if (id === null || seen.has(id) || !this.#rows.has(id)) return;
			seen.add(id);
			queue.push(id);
		};
		for (const id of ids) add(id);
		for (let i = 0; i < queue.length; i++) {
			const row = this.#rows.get(queue[i])!;
			const parent = takesParent(row) ? this.#rows.get(row.parent_session_id!) : undefined;
			if (parent && sameOrigin(row, parent)) add(parent.id);
			for (const child of this.childrenOf(row.id)) if (goesWithParent(child.parent_kind) && sameOrigin(child, row)) add(child.id);
		}
		return queue;
	}

	/** Children of the removed sessions that stay (branches): their parent link will be cleared. */
	detachedBy(removed: Iterable<string>): string[] {
		const gone = new Set(removed);
		return [...gone].flatMap((id) => this.childrenOf(id).filter((child) => !gone.has(child.id)).map((child) => child.id));
	}
}

/**
 * What a sweep may take: for each candidate, its whole closure, but only when every session in
 * it qualifies (so a lineage goes only as a whole, and never with a busy or kept link).
 */
export function selectWholeGroups<R extends SessionLink>(
	family: SessionFamily<R>,
	candidates: Iterable<string>,
	qualifies: (row: R) => boolean
): string[] {
	const taken = new Set<string>();
	for (const id of candidates) {
		if (taken.has(id)) continue;
		const group = family.closureOf([id]);
		if (group.length && group.every((member) => qualifies(family.get(member)!))) for (const member of group) taken.add(member);
	}
	return [...taken];
}
