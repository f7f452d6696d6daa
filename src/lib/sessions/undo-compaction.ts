// Undo compaction, Continue in the earlier session and Edit summary, under the session's work lock (so a turn
// or a compaction in any tab is never interleaved with it). An undo is no compaction:
// post_compaction does not fire. Continuing in the earlier session ends the later one
// (on_session_end with end_reason `compression_undone`).
import { commitContinueEarlier, commitUndoCompaction, readUndoneRows } from '../db/undo-compaction-verbs';
import type { MessageRow } from '../db/schema';
import { commitSummaryEdit, type SummaryEdit } from '../db/edit-summary-verbs';
import { nowOf, type SessionContext } from './session-context';
import { finalizeSession } from './session-lifecycle';
import { SessionBusyError, withWorkLock } from './work-lock';

const busy = () => new SessionBusyError('The session is busy (answering or compacting, here or in another tab); try again when it is done.');

/** Brings the rows of the session's latest compaction back into its context. */
export async function undoCompaction(ctx: SessionContext, sessionId: string, compactionId: string): Promise<{ restored: number }> {
	return withWorkLock(ctx.profile, sessionId, { kind: 'compaction', refusal: busy }, () => commitUndoCompaction(ctx.db, sessionId, compactionId, nowOf(ctx)));
}

/** The session's active rows as an undo of the compaction would leave them (nothing changes). */
export function previewUndo(ctx: SessionContext, sessionId: string, compactionId: string): Promise<MessageRow[]> {
	return readUndoneRows(ctx.db, sessionId, compactionId);
}

/** Reopens the session a rotation ended and ends this one; returns the session to show. */
export async function continueInEarlier(ctx: SessionContext, sessionId: string, compactionId: string, parentId: string): Promise<string> {
	const { sessionKey } = await withWorkLock(ctx.profile, sessionId, { kind: 'compaction', refusal: busy }, () =>
		withWorkLock(ctx.profile, parentId, { kind: 'compaction', refusal: busy }, () => commitContinueEarlier(ctx.db, sessionId, compactionId, nowOf(ctx)))
	);
	void ctx.hooks?.notify('on_session_end', { session_id: sessionId, session_key: sessionKey, end_reason: 'compression_undone', platform: ctx.platform });
	await finalizeSession(ctx, sessionId);
	return parentId;
}

/** Replaces the latest summary with the user's text; the original stays in the history. */
export async function editSummary(ctx: SessionContext, sessionId: string, compactionId: string, edit: string | SummaryEdit): Promise<MessageRow> {
	return withWorkLock(ctx.profile, sessionId, { kind: 'compaction', refusal: busy }, () => commitSummaryEdit(ctx.db, sessionId, compactionId, edit, nowOf(ctx)));
}
