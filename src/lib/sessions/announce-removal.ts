// The one place `on_session_delete` is raised: after an operation's transaction committed, once,
// and only when it changed something. A replayed receipt announces nothing.
import type { CommittedOperation } from '../db/deletion-verbs';
import type { DeletionReason } from '../hooks/hook-payloads';
import type { SessionContext } from './session-context';

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
		const session_id = targets.find((id) => ids.includes(id)) ?? ids[0];
		void ctx.hooks?.notify('on_session_delete', {
			session_id,
			reason,
			profile: ctx.profile,
			...(ids.length > 1 ? { deleted_ids: [...ids] } : {}),
			sessions_dir: null
		});
	}
	return { op_id: receipt.op_id, reason, ids: [...ids], detached: [...receipt.detached_ids], replayed };
}

/** The outcome of an operation found already done: its receipt, replayed. */
export function replayedOutcome(committed: CommittedOperation['receipt'], reason: DeletionReason): OperationOutcome {
	return { op_id: committed.op_id, reason, ids: [...committed.session_ids], detached: [...committed.detached_ids], replayed: true };
}
