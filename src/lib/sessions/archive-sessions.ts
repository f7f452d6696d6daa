// Archiving hides sessions from the list without removing anything; it covers each session's
// compression lineage and delegate children. Only a real not-archived → archived change by the
// user is announced (reason `archive`); unarchiving and automatic archiving are quiet.
import { commitArchive, getReceipt, setArchivedFlag } from '../db/deletion-verbs';
import { announceRemoval, newOperationId, owedRemoval, replayedOutcome, type OperationOutcome } from './announce-removal';
import { familyCheck, planAgainIfStale } from './plan-again-if-stale';
import { readFamily } from './read-family';
import { nowOf, type SessionContext } from './session-context';

/** The user archives `ids` ("Archive", "Archive selected", `/archive`). */
export async function archiveSessions(
	ctx: SessionContext,
	ids: readonly string[],
	opId: string = newOperationId()
): Promise<OperationOutcome> {
	const stored = await getReceipt(ctx.db, opId);
	if (stored) return replayedOutcome(stored, 'archive');
	const committed = await planAgainIfStale(async () => {
		const family = await readFamily(ctx.db, ids);
		const group = family.closureOf(ids);
		return commitArchive(ctx.db, { op_id: opId, reason: 'archive', session_id: ids[0] ?? '', at: nowOf(ctx), ids: group, check: familyCheck(family, group), owes: owedRemoval(ctx, 'archive', ids) });
	});
	return announceRemoval(ctx, 'archive', committed, ids);
}

/** Brings sessions (and their lineages) back to the list. Quiet: plugins learn nothing. */
export async function unarchiveSessions(ctx: SessionContext, ids: readonly string[]): Promise<string[]> {
	const group = (await readFamily(ctx.db, ids)).closureOf(ids);
	return setArchivedFlag(ctx.db, group, 0);
}
