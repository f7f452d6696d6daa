// The sweeps: each finds its candidates by index, widens them to whole groups (a compression
// lineage goes only as a whole), keeps only groups whose every session qualifies and is free
// (no tab works on it or shows it), and removes them as one announced operation.
import { listLeftoverMessageSessions, sessionsWithConversation, sessionsWithMessages, setArchivedFlag } from '../db/deletion-verbs';
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

/**
 * Candidates widened to their families, reduced to whole groups whose every session is free
 * and passes `qualifies`. `disqualified` (a batched message read) then rules out sessions that
 * passed the row test, for the whole family at once.
 */
async function chooseGroups(
	ctx: SessionContext,
	candidates: SessionRow[],
	busy: BusyIds,
	qualifies: (row: SessionRow) => boolean,
	disqualified: (ids: string[]) => Promise<ReadonlySet<string>> = async () => new Set()
): Promise<string[]> {
	const ids = candidates.filter((row) => !busy.has(row.id) && qualifies(row)).map((row) => row.id);
	if (!ids.length) return [];
	const family = await readFamily(ctx.db, ids);
	const passing = (row: SessionRow) => !busy.has(row.id) && qualifies(row);
	const out = await disqualified(family.closureOf(ids).filter((id) => passing(family.get(id)!)));
	return selectWholeGroups(family, ids, (row) => passing(row) && !out.has(row.id));
}

/** Nothing removed: no event, no receipt. */
function nothing(reason: OperationOutcome['reason']): OperationOutcome {
	return { op_id: '', reason, ids: [], detached: [], replayed: false };
}

/** `empty_sweep`: ended, not archived, with no user or assistant message. */
export async function sweepEmptySessions(ctx: SessionContext, busy: BusyIds): Promise<OperationOutcome> {
	const endedUnarchived = (row: SessionRow) => row.ended_at !== null && row.archived === 0;
	const remove = await chooseGroups(ctx, await listEndedSessions(ctx.db), busy, endedUnarchived, (ids) => sessionsWithConversation(ctx.db, ids));
	return remove.length ? removeChosenSessions(ctx, 'empty_sweep', remove) : nothing('empty_sweep');
}

/** `prune`: ended, unpinned, last active more than `days` days ago (0 = retention off). */
export async function pruneExpiredSessions(ctx: SessionContext, days: number, busy: BusyIds): Promise<OperationOutcome> {
	if (!(days > 0)) return nothing('prune');
	const cutoff = nowOf(ctx) - days * DAY_MS;
	const expired = (row: SessionRow) => row.ended_at !== null && row.pinned === 0 && row.last_activity_at < cutoff;
	const remove = await chooseGroups(ctx, await listSessionsIdleSince(ctx.db, cutoff), busy, expired);
	return remove.length ? removeChosenSessions(ctx, 'prune', remove) : nothing('prune');
}

/**
 * `ghost_prune`: empty, untitled rows older than a day that no tab shows (the row `/new` makes
 * at once, left by a tab that is gone), and message rows whose session row no longer exists.
 */
export async function pruneGhosts(ctx: SessionContext, busy: BusyIds): Promise<OperationOutcome> {
	const cutoff = nowOf(ctx) - GHOST_AGE_MS;
	const ghost = (row: SessionRow) => row.title_source === 'auto' && row.message_count === 0 && row.last_activity_at < cutoff;
	const remove = await chooseGroups(ctx, await listSessionsIdleSince(ctx.db, cutoff), busy, ghost, (ids) => sessionsWithMessages(ctx.db, ids));
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
	const group = await chooseGroups(ctx, await listSessionsIdleSince(ctx.db, cutoff), busy, idle);
	return group.length ? setArchivedFlag(ctx.db, group, 1) : [];
}
