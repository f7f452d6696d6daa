// The ids of synced documents: `session:<id>` and `msg:<session>:<position>`. A message's id
// carries its session and place, so no body field can claim another.
import { isPosition } from './position';

/** The version of the document layout; a document of a later one is left for a newer app. */
export const DOCUMENT_FORMAT = 1;

export const SESSION_PREFIX = 'session:';
export const MESSAGE_PREFIX = 'msg:';
/** As in an imported file: this app writes 36-character UUIDs. */
export const MAX_SESSION_ID_CHARS = 200;

export type DocumentId = { kind: 'session'; session_id: string } | { kind: 'message'; session_id: string; position: string };

/** A session id a document may carry: non-empty, bounded, and no control characters. */
export function isSessionId(value: unknown): value is string {
	// eslint-disable-next-line no-control-regex -- control characters are what it refuses
	return typeof value === 'string' && value.length > 0 && value.length <= MAX_SESSION_ID_CHARS && !/[\u0000-\u001f\u007f]/.test(value);
}

export function sessionDocId(sessionId: string): string {
	if (!isSessionId(sessionId)) throw new Error(`Not a session id that syncs: ${JSON.stringify(sessionId)}.`);
	return SESSION_PREFIX + sessionId;
}

export function messageDocId(sessionId: string, position: string): string {
	if (!isSessionId(sessionId)) throw new Error(`Not a session id that syncs: ${JSON.stringify(sessionId)}.`);
	if (!isPosition(position)) throw new Error(`Not a position: ${JSON.stringify(position)}.`);
	return `${MESSAGE_PREFIX}${sessionId}:${position}`;
}

/**
 * What a document id names, or null for any other id. A session id may itself hold a colon, so
 * a message id is read from its end: the position is its last 26 characters.
 */
export function parseDocId(id: unknown): DocumentId | null {
	if (typeof id !== 'string') return null;
	if (id.startsWith(SESSION_PREFIX)) {
		const sessionId = id.slice(SESSION_PREFIX.length);
		return isSessionId(sessionId) ? { kind: 'session', session_id: sessionId } : null;
	}
	if (id.startsWith(MESSAGE_PREFIX)) {
		const position = id.slice(-26);
		const sessionId = id.slice(MESSAGE_PREFIX.length, -27);
		if (id.at(-27) !== ':' || !isPosition(position) || !isSessionId(sessionId)) return null;
		return { kind: 'message', session_id: sessionId, position };
	}
	return null;
}
