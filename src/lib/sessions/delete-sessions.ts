// Deleting sessions: plan the cascade from the stored links, stop this tab's work on them,
// write rows and receipt in one transaction, then announce once (DESIGN §6).
import { commitDeletion, getReceipt, type PlanCheck } from '../db/deletion-verbs';
import type { DeletionReason } from '../hooks/hook-payloads';
import { announceRemoval, newOperationId, owedRemoval, replayedOutcome, type OperationOutcome } from './announce-removal';
import { familyCheck, planAgainIfStale } from './plan-again-if-stale';
import { readFamily } from './read-family';
import { nowOf, type SessionContext } from './session-context';
import { stopThenLock } from './stop-and-lock';

// A User Timing entry, so the cost of a deletion shows in the browser's performance tools.
const MEASURE = 'palimpsest:delete-sessions';

/**
 * The user deletes `ids` (one session, a multi-selection, `/exit --delete`): each with its
 * compression lineage and delegate children; branch children are detached. An exact retry with
 * the same `opId` returns the first outcome, marked replayed, and announces nothing.
 */
export async function deleteSessions(
	ctx: SessionContext,
	ids: readonly string[],
	opId: string = newOperationId()
): Promise<OperationOutcome> {
	const started = performance.now();
	const stored = await getReceipt(ctx.db, opId);
	if (stored) return replayedOutcome(stored, 'delete');
	const committed = await planAgainIfStale(async () => {
		const family = await readFamily(ctx.db, ids);
		const remove = family.closureOf(ids);
		return stopThenLock(ctx.profile, remove, () =>
			commitDeletion(ctx.db, { op_id: opId, reason: 'delete', session_id: ids[0] ?? '', at: nowOf(ctx), remove, check: familyCheck(family, remove), owes: owedRemoval(ctx, 'delete', ids) })
		);
	});
	const outcome = announceRemoval(ctx, 'delete', committed, ids);
	performance.measure(MEASURE, { start: started });
	return outcome;
}

/**
 * Removes sessions a sweep or a repair chose (already whole groups of free sessions), plus
 * message rows left without a session (`leftovers`), as one announced operation.
 */
export async function removeChosenSessions(
	ctx: SessionContext,
	reason: Exclude<DeletionReason, 'delete' | 'archive'>,
	remove: readonly string[],
	leftovers: readonly string[] = [],
	check: PlanCheck = {}
): Promise<OperationOutcome> {
	const opId = newOperationId();
	const session_id = remove[0] ?? leftovers[0] ?? '';
	const committed = await commitDeletion(ctx.db, { op_id: opId, reason, session_id, at: nowOf(ctx), remove, leftovers, check, owes: owedRemoval(ctx, reason, remove) });
	return announceRemoval(ctx, reason, committed, remove);
}
