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
 * given) and writes what changed. `also`: fields `session` carries that its stored row does not
 * yet, written in the same update. Returns the rows as they are now and the conversation.
 */
export async function writeConversation(db: PalimpsestDb, session: SessionRow, rows?: MessageRow[], also: Partial<SessionRow> = {}): Promise<{ rows: MessageRow[]; conversation: Conversation; session: SessionRow }> {
	const all = rows ?? (await readSessionRows(db, session.id));
	const conversation = deriveConversation(session.version_shown, all);
	const next = all.map((row, at) => (stateChanged(row, conversation.rows[at]) ? withState(row, conversation.rows[at]) : row));
	const changed = next.filter((row, at) => row !== all[at]);
	if (changed.length) await db.messages.bulkPut(changed);
	let stored = session;
	const derived = sessionStateChanged(session, conversation) ? sessionState(conversation) : {};
	if (Object.keys(also).length || Object.keys(derived).length) {
		stored = { ...session, ...derived };
		await db.sessions.update(session.id, { ...also, ...derived });
	}
	return { rows: next, conversation, session: stored };
}
