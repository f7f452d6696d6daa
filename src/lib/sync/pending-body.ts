// The CouchDB body of a pending document and its size, as `_bulk_docs` sends it: the store fills
// a batch by the same measure the engine bounds its requests with. A Blob goes apart (its bytes
// as an attachment), so only its small request counts.
import { messageToBody } from './message-document';
import { sessionToBody } from './session-document';
import { promptToBody } from './prompt-document';
import { assistantToBody } from './assistant-document';
import type { PendingDoc } from './sync-store';

/** Each pending document's body, made once: measured, then sent, as the same object (never changed once made). */
const bodies = new WeakMap<PendingDoc, Record<string, unknown>>();

export function pendingBody(entry: Exclude<PendingDoc, { kind: 'blob' }>): Record<string, unknown> {
	let body = bodies.get(entry);
	if (body === undefined) bodies.set(entry, (body = bodyOf(entry)));
	return body;
}

function bodyOf(entry: Exclude<PendingDoc, { kind: 'blob' }>): Record<string, unknown> {
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

/** The JSON of each body measured (bodies are never changed once made): a request sends it as it is. */
const texts = new WeakMap<object, string>();

/** The JSON of `body`, written once. */
export function jsonText(body: Record<string, unknown>): string {
	let text = texts.get(body);
	if (text === undefined) texts.set(body, (text = JSON.stringify(body)));
	return text;
}

/** The UTF-8 bytes of `value` as JSON (text all ASCII, as most is, is counted without encoding it). */
export function jsonBytes(value: unknown): number {
	const text = JSON.stringify(value) ?? '';
	return utf8Bytes(text);
}

const utf8Bytes = (text: string) => (NOT_ASCII.test(text) ? encoder.encode(text).byteLength : text.length);

/** Each pending document's size, measured once: a batch is filled, then packed into requests, by it. */
const sizes = new WeakMap<PendingDoc, number>();

/** What `entry` adds to a `_bulk_docs` request: its body and the comma before it (a Blob: its id). */
export function pendingBytes(entry: PendingDoc): number {
	let size = sizes.get(entry);
	if (size === undefined) sizes.set(entry, (size = entry.kind === 'blob' ? entry.id.length + 1 : utf8Bytes(jsonText(pendingBody(entry))) + 1));
	return size;
}
