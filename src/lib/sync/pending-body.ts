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
const NOT_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 bytes of `value` as JSON (text all ASCII, as most is, is counted without encoding it). */
export function jsonBytes(value: unknown): number {
	const text = JSON.stringify(value) ?? '';
	return NOT_ASCII.test(text) ? encoder.encode(text).byteLength : text.length;
}

/** Each pending document's size, measured once: a batch is filled, then packed into requests, by it. */
const sizes = new WeakMap<PendingDoc, number>();

/** What `entry` adds to a `_bulk_docs` request: its body and the comma before it (a Blob: its id). */
export function pendingBytes(entry: PendingDoc): number {
	let size = sizes.get(entry);
	if (size === undefined) sizes.set(entry, (size = entry.kind === 'blob' ? entry.id.length + 1 : jsonBytes(pendingBody(entry)) + 1));
	return size;
}
