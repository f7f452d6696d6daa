// The one place `on_session_delete` is raised: after an operation's transaction committed, once,
// and only when it changed something. A replayed receipt announces nothing. The commit writes the
// hook it owes on its receipt; once dispatched it is cleared, and a tab that closed first leaves
// it for the next start-up (see replay-unfired-hooks.ts).
import type { CommittedOperation } from '../db/deletion-verbs';
import type { UnfiredHook } from '../db/schema';
import { markFired } from '../db/unfired-hook-verbs';
import type { DeletionReason, SessionDeletePayload } from '../hooks/hook-payloads';
import type { SessionContext } from './session-context';
import { thisTab } from './tab-presence';

/** What a deletion or archive did, as its callers see it. */
export interface OperationOutcome {
	op_id: string;
	reason: DeletionReason;
	/** Every session the operation removed or archived (for leftovers: whose messages went). */
	ids: string[];
	/** Children whose parent link was cleared. */
	detached: string[];
	/** The operation had already been done under this op id: nothing happened now. */
	replayed: boolean;
}

export function newOperationId(): string {
	return crypto.randomUUID();
}

/**
 * Announces a committed operation. `targets` are the sessions the user or sweep named; the
 * event's session_id is the first of them that the operation really took.
 */
export function announceRemoval(
	ctx: SessionContext,
	reason: DeletionReason,
	committed: CommittedOperation,
	targets: readonly string[] = []
): OperationOutcome {
	const { receipt, replayed } = committed;
	const ids = receipt.session_ids;
	if (!replayed && ids.length) {
		const dispatched = ctx.hooks?.notify('on_session_delete', removalPayload(ctx, reason, ids, targets)) ?? Promise.resolve();
		void dispatched.finally(() => markFired(ctx.db, receipt.op_id)).catch(() => {});
	}
	return { op_id: receipt.op_id, reason, ids: [...ids], detached: [...receipt.detached_ids], replayed };
}

/** What `on_session_delete` says of an operation that took `ids`. */
function removalPayload(ctx: SessionContext, reason: DeletionReason, ids: readonly string[], targets: readonly string[]): SessionDeletePayload {
	const session_id = targets.find((id) => ids.includes(id)) ?? ids[0];
	return { session_id, reason, profile: ctx.profile, ...(ids.length > 1 ? { deleted_ids: [...ids] } : {}), sessions_dir: null };
}

/** What an operation's commit writes it owes: `on_session_delete`, when it takes any session. */
export function owedRemoval(ctx: SessionContext, reason: DeletionReason, targets: readonly string[] = []): (ids: readonly string[]) => UnfiredHook | undefined {
	return (ids) => (ids.length ? { tab: thisTab(), hook: 'on_session_delete', payload: removalPayload(ctx, reason, ids, targets) } : undefined);
}

/** The outcome of an operation found already done: its receipt, replayed. */
export function replayedOutcome(committed: CommittedOperation['receipt'], reason: DeletionReason): OperationOutcome {
	return { op_id: committed.op_id, reason, ids: [...committed.session_ids], detached: [...committed.detached_ids], replayed: true };
}
