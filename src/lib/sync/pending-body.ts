// The CouchDB body of a pending document and its size, as `_bulk_docs` sends it: the store fills
// a batch by the same measure the engine bounds its requests with. A Blob goes apart (its bytes
// as an attachment), so only its small request counts.
import { messageToBody } from './message-document';
import { sessionToBody } from './session-document';
import { promptToBody } from './prompt-document';
import { assistantToBody } from './assistant-document';
import type { PendingDoc } from './sync-store';

export function pendingBody(entry: Exclude<PendingDoc, { kind: 'blob' }>): Record<string, unknown> {
	switch (entry.kind) {
		case 'session':
			return sessionToBody(entry.doc, entry.rev);
		case 'message':
			return messageToBody(entry.doc, entry.rev);
		case 'prompt':
			return promptToBody(entry.doc, entry.rev);
		case 'assistant':
			return assistantToBody(entry.doc, entry.rev);
		case 'delete':
			return { _id: entry.id, _rev: entry.rev, _deleted: true };
	}
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `value` as JSON. */
export function jsonBytes(value: unknown): number {
	return encoder.encode(JSON.stringify(value)).byteLength;
}

/** What `entry` adds to a `_bulk_docs` request: its body and the comma before it (a Blob: its id). */
export function pendingBytes(entry: PendingDoc): number {
	return entry.kind === 'blob' ? entry.id.length + 1 : jsonBytes(pendingBody(entry)) + 1;
}
