// The CouchDB body of a pending document and its size, as `_bulk_docs` sends it: the store fills
// a batch by the same measure the engine bounds its requests with.
import { messageDocId } from './document-ids';
import { messageToBody } from './message-document';
import { sessionToBody } from './session-document';
import type { PendingDoc } from './sync-store';

export function pendingBody(entry: PendingDoc): Record<string, unknown> {
	switch (entry.kind) {
		case 'session':
			return sessionToBody(entry.doc, entry.rev ?? undefined);
		case 'message':
			return messageToBody(entry.doc);
		case 'message-removed':
			return { _id: messageDocId(entry.session_id, entry.position), ...(entry.rev === null ? {} : { _rev: entry.rev }), _deleted: true };
		case 'session-purged':
			return { _id: entry.id, ...(entry.rev === null ? {} : { _rev: entry.rev }), _deleted: true };
	}
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `value` as JSON. */
export function jsonBytes(value: unknown): number {
	return encoder.encode(JSON.stringify(value)).byteLength;
}

/** What `entry` adds to a `_bulk_docs` request: its body and the comma before it. */
export function pendingBytes(entry: PendingDoc): number {
	return jsonBytes(pendingBody(entry)) + 1;
}
