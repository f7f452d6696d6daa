// The sweeps: each finds its candidates by index, widens them to whole groups (a compression
// lineage goes only as a whole), keeps only groups whose every session qualifies and is free
// (no tab works on it or shows it), and removes them as one announced operation.
import { hasConversation, hasMessages, listLeftoverMessageSessions, setArchivedFlag } from '../db/deletion-verbs';
import { listEndedSessions, listSessionsIdleSince } from '../db/maintenance-verbs';
import type { SessionRow } from '../db/schema';
import { type OperationOutcome } from './announce-removal';
import { removeChosenSessions } from './delete-sessions';
import { selectWholeGroups } from './plan-cascade';
import { readFamily } from './read-family';
import { nowOf, type SessionContext } from './session-context';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an empty, untitled row may wait for the tab that made it before it counts as a ghost. */
export const GHOST_AGE_MS = DAY_MS;

/** Sessions no sweep may touch: some tab works on them or shows them. */
export type BusyIds = ReadonlySet<string>;

/** Candidates widened to their families, reduced to whole groups that all pass `qualifies`. */
async function chooseGroups(
	ctx: SessionContext,
	candidates: SessionRow[],
	busy: BusyIds,
	qualifies: (row: SessionRow) => boolean | Promise<boolean>
): Promise<string[]> {
	if (!candidates.length) return [];
	const family = await readFamily(ctx.db, candidates.map((row) => row.id));
	// Qualification may read messages: decide each family member once, before the pure selection.
	const passing = new Set<string>();
	for (const id of family.closureOf(candidates.map((row) => row.id))) {
		const row = family.get(id)!;
		if (!busy.has(id) && (await qualifies(row))) passing.add(id);
	}
	return selectWholeGroups(family, candidates.map((row) => row.id), (row) => passing.has(row.id));
}

/** Nothing removed: no event, no receipt. */
function nothing(reason: OperationOutcome['reason']): OperationOutcome {
	return { op_id: '', reason, ids: [], detached: [], replayed: false };
}

/** `empty_sweep`: ended, not archived, with no user or assistant message. */
export async function sweepEmptySessions(ctx: SessionContext, busy: BusyIds): Promise<OperationOutcome> {
	const ended = (await listEndedSessions(ctx.db)).filter((row) => row.archived === 0 && !busy.has(row.id));
	const empty = async (row: SessionRow) => row.ended_at !== null && row.archived === 0 && !(await hasConversation(ctx.db, row.id));
	const candidates: SessionRow[] = [];
	for (const row of ended) if (await empty(row)) candidates.push(row);
	const remove = await chooseGroups(ctx, candidates, busy, empty);
	return remove.length ? removeChosenSessions(ctx, 'empty_sweep', remove) : nothing('empty_sweep');
}

/** `prune`: ended, unpinned, last active more than `days` days ago (0 = retention off). */
export async function pruneExpiredSessions(ctx: SessionContext, days: number, busy: BusyIds): Promise<OperationOutcome> {
	if (!(days > 0)) return nothing('prune');
	const cutoff = nowOf(ctx) - days * DAY_MS;
	const expired = (row: SessionRow) => row.ended_at !== null && row.pinned === 0 && row.last_activity_at < cutoff;
	const candidates = (await listSessionsIdleSince(ctx.db, cutoff)).filter((row) => expired(row) && !busy.has(row.id));
	const remove = await chooseGroups(ctx, candidates, busy, expired);
	return remove.length ? removeChosenSessions(ctx, 'prune', remove) : nothing('prune');
}

/**
 * `ghost_prune`: empty, untitled rows older than a day that no tab shows (the row `/new` makes
 * at once, left by a tab that is gone), and message rows whose session row no longer exists.
 */
export async function pruneGhosts(ctx: SessionContext, busy: BusyIds): Promise<OperationOutcome> {
	const cutoff = nowOf(ctx) - GHOST_AGE_MS;
	const ghost = async (row: SessionRow) =>
		row.title_source === 'auto' && row.message_count === 0 && row.last_activity_at < cutoff && !(await hasMessages(ctx.db, row.id));
	const candidates: SessionRow[] = [];
	for (const row of await listSessionsIdleSince(ctx.db, cutoff)) if (!busy.has(row.id) && (await ghost(row))) candidates.push(row);
	const remove = await chooseGroups(ctx, candidates, busy, ghost);
	const leftovers = await listLeftoverMessageSessions(ctx.db);
	return remove.length || leftovers.length ? removeChosenSessions(ctx, 'ghost_prune', remove, leftovers) : nothing('ghost_prune');
}

/**
 * Auto-archive: sessions idle more than `days` days (0 = off), unpinned, lineage as a whole.
 * Quiet: no event and no receipt; the user did not ask for it. Returns the archived ids.
 */
export async function autoArchiveIdleSessions(ctx: SessionContext, days: number, busy: BusyIds): Promise<string[]> {
	if (!(days > 0)) return [];
	const cutoff = nowOf(ctx) - days * DAY_MS;
	const idle = (row: SessionRow) => row.archived === 0 && row.pinned === 0 && row.last_activity_at < cutoff;
	const candidates = (await listSessionsIdleSince(ctx.db, cutoff)).filter((row) => idle(row) && !busy.has(row.id));
	const group = await chooseGroups(ctx, candidates, busy, idle);
	return group.length ? setArchivedFlag(ctx.db, group, 1) : [];
}
