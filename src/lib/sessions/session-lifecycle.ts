// Creating, ending and replacing sessions. Hooks fire only after the write has committed.
import { getSession, insertSession, updateSession } from '../db/session-verbs';
import type { SessionRow } from '../db/schema';
import { buildSessionRow, type NewSessionOptions } from './build-session-row';
import { nowOf, type SessionContext } from './session-context';

export type { NewSessionOptions };

/** Stores a new session and announces it with `on_session_start` once it has committed. */
export async function createSession(
	ctx: SessionContext,
	options: NewSessionOptions
): Promise<SessionRow> {
	const row = buildSessionRow(ctx, options);
	await insertSession(ctx.db, row);
	void ctx.hooks?.notify('on_session_start', {
		session_id: row.id,
		session_key: row.session_key,
		platform: ctx.platform,
		profile: ctx.profile,
		model: row.model
	});
	return row;
}

/** Ends a session (e.g. `/exit`, `/new`); a session that already ended is left as it was. */
export async function endSession(
	ctx: SessionContext,
	id: string,
	endReason: string
): Promise<SessionRow | undefined> {
	const row = await getSession(ctx.db, id);
	if (!row || row.ended_at !== null) return row;
	const ended = { ...row, ended_at: nowOf(ctx), end_reason: endReason };
	await updateSession(ctx.db, id, { ended_at: ended.ended_at, end_reason: endReason });
	void ctx.hooks?.notify('on_session_end', {
		session_id: id,
		session_key: row.session_key,
		end_reason: endReason,
		platform: ctx.platform
	});
	return ended;
}

/** The last chance for plugins to flush: the user left the session for good, or the tab is going. */
export async function finalizeSession(ctx: SessionContext, id: string): Promise<void> {
	const row = await getSession(ctx.db, id);
	if (!row) return;
	void ctx.hooks?.notify('on_session_finalize', {
		session_id: id,
		session_key: row.session_key,
		platform: ctx.platform
	});
}

/**
 * `/new` and `/reset`: the old session ends and a new one continues the same thread
 * (same session_key), announced with `on_session_reset`.
 */
export async function replaceSession(
	ctx: SessionContext,
	oldId: string,
	endReason: 'new_session' | 'reset',
	options: Omit<NewSessionOptions, 'session_key'>
): Promise<SessionRow> {
	const old = await getSession(ctx.db, oldId);
	if (!old) throw new Error(`Session ${oldId} no longer exists.`);
	await endSession(ctx, oldId, endReason);
	await finalizeSession(ctx, oldId);
	const next = await createSession(ctx, { ...options, session_key: old.session_key });
	void ctx.hooks?.notify('on_session_reset', {
		session_id: next.id,
		old_session_id: oldId,
		session_key: old.session_key
	});
	return next;
}
