// The sweeps: each finds its candidates by index, widens them to whole groups (a compression
// lineage goes only as a whole), keeps only groups whose every session qualifies and is free
// (no tab works on it or shows it), and removes them as one announced operation. Between the
// look and the write another tab may open one of them, start work on it or write to it: the
// write holds the chosen sessions' locks (skipping any taken meanwhile) and is refused if a
// chosen row changed, so the sweep takes nothing that stopped qualifying.
import { listLeftoverMessageSessions, sessionsWithConversation, sessionsWithMessages, setArchivedFlag, StalePlanError } from '../db/deletion-verbs';
import { listEndedSessions, listSessionsIdleSince } from '../db/maintenance-verbs';
import type { SessionRow } from '../db/schema';
import { type OperationOutcome } from './announce-removal';
import { removeChosenSessions } from './delete-sessions';
import { selectWholeGroups, type SessionFamily } from './plan-cascade';
import { readFamily } from './read-family';
import { nowOf, type SessionContext } from './session-context';
import { withFreeSessions } from './work-lock';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an empty, untitled row may wait for the tab that made it before it counts as a ghost. */
export const GHOST_AGE_MS = DAY_MS;

/** Sessions no sweep may touch: some tab works on them or shows them. */
export type BusyIds = ReadonlySet<string>;

/** Whole groups a sweep chose, with the family they were chosen from. */
interface Chosen {
	ids: string[];
	family: SessionFamily<SessionRow> | null;
}

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
): Promise<Chosen> {
	const ids = candidates.filter((row) => !busy.has(row.id) && qualifies(row)).map((row) => row.id);
	if (!ids.length) return { ids: [], family: null };
	const family = await readFamily(ctx.db, ids);
	const passing = (row: SessionRow) => !busy.has(row.id) && qualifies(row);
	const out = await disqualified(family.closureOf(ids).filter((id) => passing(family.get(id)!)));
	return { ids: selectWholeGroups(family, ids, (row) => passing(row) && !out.has(row.id)), family };
}

/**
 * Runs `write` on the chosen groups that are still wholly free, holding their sessions' locks;
 * `rows` are those sessions as chosen, for the write to check against.
 */
function whileFree<T>(ctx: SessionContext, chosen: Chosen, write: (ids: string[], rows: SessionRow[]) => Promise<T>): Promise<T> {
	return withFreeSessions(ctx.profile, chosen.ids, (free) => {
		const ids = chosen.family ? selectWholeGroups(chosen.family, chosen.ids, (row) => free.has(row.id)) : [];
		return write(ids, ids.map((id) => chosen.family!.get(id)!));
	});
}

/** Removes what a sweep chose, as one announced operation; nothing if it went stale. */
function sweepAway(ctx: SessionContext, reason: 'empty_sweep' | 'prune' | 'ghost_prune', chosen: Chosen, leftovers: readonly string[] = []): Promise<OperationOutcome> {
	if (!chosen.ids.length && !leftovers.length) return Promise.resolve(nothing(reason));
	return whileFree(ctx, chosen, async (ids, rows) => {
		if (!ids.length && !leftovers.length) return nothing(reason);
		try {
			return await removeChosenSessions(ctx, reason, ids, leftovers, { unchanged: rows });
		} catch (error) {
			// The next pass looks again.
			if (error instanceof StalePlanError) return nothing(reason);
			throw error;
		}
	});
}

/** Nothing removed: no event, no receipt. */
function nothing(reason: OperationOutcome['reason']): OperationOutcome {
	return { op_id: '', reason, ids: [], detached: [], replayed: false };
}

/** `empty_sweep`: ended, not archived, with no user or assistant message. */
export async function sweepEmptySessions(ctx: SessionContext, busy: BusyIds): Promise<OperationOutcome> {
	const endedUnarchived = (row: SessionRow) => row.ended_at !== null && row.archived === 0;
	const chosen = await chooseGroups(ctx, await listEndedSessions(ctx.db), busy, endedUnarchived, (ids) => sessionsWithConversation(ctx.db, ids));
	return sweepAway(ctx, 'empty_sweep', chosen);
}

/** `prune`: ended, unpinned, last active more than `days` days ago (0 = retention off). */
export async function pruneExpiredSessions(ctx: SessionContext, days: number, busy: BusyIds): Promise<OperationOutcome> {
	if (!(days > 0)) return nothing('prune');
	const cutoff = nowOf(ctx) - days * DAY_MS;
	const expired = (row: SessionRow) => row.ended_at !== null && row.pinned === 0 && row.last_activity_at < cutoff;
	const chosen = await chooseGroups(ctx, await listSessionsIdleSince(ctx.db, cutoff), busy, expired);
	return sweepAway(ctx, 'prune', chosen);
}

/**
 * `ghost_prune`: empty, untitled rows older than a day that no tab shows (the row `/new` makes
 * at once, left by a tab that is gone), and message rows whose session row no longer exists.
 */
export async function pruneGhosts(ctx: SessionContext, busy: BusyIds): Promise<OperationOutcome> {
	const cutoff = nowOf(ctx) - GHOST_AGE_MS;
	const ghost = (row: SessionRow) => row.title_source === 'auto' && row.message_count === 0 && row.last_activity_at < cutoff;
	const chosen = await chooseGroups(ctx, await listSessionsIdleSince(ctx.db, cutoff), busy, ghost, (ids) => sessionsWithMessages(ctx.db, ids));
	return sweepAway(ctx, 'ghost_prune', chosen, await listLeftoverMessageSessions(ctx.db));
}

/**
 * Auto-archive: sessions idle more than `days` days (0 = off), unpinned, lineage as a whole.
 * Quiet: no event and no receipt; the user did not ask for it. Returns the archived ids.
 */
export async function autoArchiveIdleSessions(ctx: SessionContext, days: number, busy: BusyIds): Promise<string[]> {
	if (!(days > 0)) return [];
	const cutoff = nowOf(ctx) - days * DAY_MS;
	const idle = (row: SessionRow) => row.archived === 0 && row.pinned === 0 && row.last_activity_at < cutoff;
	const chosen = await chooseGroups(ctx, await listSessionsIdleSince(ctx.db, cutoff), busy, idle);
	return chosen.ids.length ? whileFree(ctx, chosen, async (ids) => (ids.length ? setArchivedFlag(ctx.db, ids, 1) : [])) : [];
}
