// The ids of synced documents: `session:<id>`, `msg:<session>:<position>`,
// `blob:<session>:<blob id>` (the bytes of an image or file a message shows), `prompt:<id>` (a
// saved prompt, by its random id) and `assistant:<id>` (an assistant, likewise). A document's id
// carries its session (and a message's its position), so no body field can claim another; ids hold no content (positions
// and random ids), so they can stay readable to the server.
import { isPosition } from './position';

/**
 * The version of the document layout; a document of a later one is left for a newer app.
 * Format 1 (messages that never changed, a deletion that could not be undone) is still read.
 */
export const DOCUMENT_FORMAT = 2;

export const SESSION_PREFIX = 'session:';
export const MESSAGE_PREFIX = 'msg:';
export const BLOB_PREFIX = 'blob:';
export const PROMPT_PREFIX = 'prompt:';
export const ASSISTANT_PREFIX = 'assistant:';
/** As an imported file's ids. */
export const MAX_BLOB_ID_CHARS = 200;
/** As in an imported file: this app writes 36-character UUIDs. */
export const MAX_SESSION_ID_CHARS = 200;

export type DocumentId =
	| { kind: 'session'; session_id: string }
	| { kind: 'message'; session_id: string; position: string }
	| { kind: 'blob'; session_id: string; blob_id: string }
	| { kind: 'prompt'; prompt_id: string }
	| { kind: 'assistant'; assistant_id: string };

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

/** The id of a saved prompt's document: its random id, as a session's is. */
export function promptDocId(promptId: string): string {
	if (!isSessionId(promptId)) throw new Error(`Not a prompt id that syncs: ${JSON.stringify(promptId)}.`);
	return PROMPT_PREFIX + promptId;
}

/** The id of the document that carries the bytes of Blob `blobId` of a session (its id escaped, so the last colon ends the session's). */
export function blobDocId(sessionId: string, blobId: string): string {
	if (!isSessionId(sessionId)) throw new Error(`Not a session id that syncs: ${JSON.stringify(sessionId)}.`);
	if (!isBlobId(blobId)) throw new Error(`Not a Blob id that syncs: ${JSON.stringify(blobId)}.`);
	return `${BLOB_PREFIX}${sessionId}:${encodeURIComponent(blobId)}`;
}

function isBlobId(value: unknown): value is string {
	return isSessionId(value) && value.length <= MAX_BLOB_ID_CHARS;
}

/** The session and Blob a blob document's id names, or null. */
function parseBlobId(id: string): DocumentId | null {
	const rest = id.slice(BLOB_PREFIX.length);
	const at = rest.lastIndexOf(':');
	if (at <= 0) return null;
	let blobId: string;
	try {
		blobId = decodeURIComponent(rest.slice(at + 1));
	} catch {
		return null;
	}
	const sessionId = rest.slice(0, at);
	if (!isSessionId(sessionId) || !isBlobId(blobId) || encodeURIComponent(blobId) !== rest.slice(at + 1)) return null;
	return { kind: 'blob', session_id: sessionId, blob_id: blobId };
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
	if (id.startsWith(BLOB_PREFIX)) return parseBlobId(id);
	if (id.startsWith(PROMPT_PREFIX)) {
		const promptId = id.slice(PROMPT_PREFIX.length);
		return isSessionId(promptId) ? { kind: 'prompt', prompt_id: promptId } : null;
	}
	if (id.startsWith(ASSISTANT_PREFIX)) {
		const assistantId = id.slice(ASSISTANT_PREFIX.length);
		return isSessionId(assistantId) ? { kind: 'assistant', assistant_id: assistantId } : null;
	}
	return null;
}
