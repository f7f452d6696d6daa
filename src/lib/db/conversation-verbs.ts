// Writes what conversation.ts derives for a session (which rows are active, which are on a
// version not on show, the session's versions and tip), inside the caller's transaction over
// sessions and messages; only rows whose derived fields changed are written.
import { Dexie, type PalimpsestDb } from './database';
import { deriveConversation, sessionStateChanged, stateChanged, withState, type Conversation } from './conversation';
import type { MessageRow, SessionRow } from './schema';

/** A session's rows in the order shown. */
export function readSessionRows(db: PalimpsestDb, sessionId: string): Promise<MessageRow[]> {
	return db.messages.where('[session_id+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).toArray();
}

/** The session row's derived fields for `conversation`. */
export function sessionState(conversation: Conversation): Pick<SessionRow, 'versions' | 'tip'> {
	return { versions: conversation.versions.length ? conversation.versions : undefined, tip: conversation.tip };
}

/**
 * Derives the conversation of `session` from `rows` (all its rows, in seq order: read when not
 * given) and writes the rows whose derived fields changed. Returns the rows as they are now, the
 * conversation, and the session row with its derived fields (not written: see writeConversation).
 */
export async function writeConversationRows(db: PalimpsestDb, session: SessionRow, rows?: MessageRow[]): Promise<{ rows: MessageRow[]; conversation: Conversation; session: SessionRow }> {
	const all = rows ?? (await readSessionRows(db, session.id));
	const conversation = deriveConversation(session.version_shown, all);
	const next = all.map((row, at) => (stateChanged(row, conversation.rows[at]) ? withState(row, conversation.rows[at]) : row));
	const changed = next.filter((row, at) => row !== all[at]);
	if (changed.length) await db.messages.bulkPut(changed);
	return { rows: next, conversation, session: sessionStateChanged(session, conversation) ? { ...session, ...sessionState(conversation) } : session };
}

/**
 * Derives the conversation of `session` from `rows` (all its rows, in seq order: read when not
 * given) and writes what changed. Returns the rows as they are now and the conversation.
 */
export async function writeConversation(db: PalimpsestDb, session: SessionRow, rows?: MessageRow[]): Promise<{ rows: MessageRow[]; conversation: Conversation; session: SessionRow }> {
	const written = await writeConversationRows(db, session, rows);
	if (written.session !== session) await db.sessions.update(session.id, sessionState(written.conversation));
	return written;
}
