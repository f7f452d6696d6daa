// The sync server's client for a database that may be encrypted: with the database's keys it
// seals every body and attachment it sends and opens every document it receives before it is read,
// so the rest of sync never meets ciphertext. A document that does not open (changed on the
// server, or written without the key) is refused and counted, never applied; one sealed with a key
// this device lacks because the passphrase was changed elsewhere stops sync until the user types
// the new one. Without keys it is CouchClient, except that an encrypted document or a key record
// stops it (the database needs the passphrase).
import { toBase64 } from './base64';
import { CouchClient, type BulkResult, type CouchClientOptions } from './couch-client';
import { BLOB_PREFIX } from './document-ids';
import type { Keyring } from './keyring';
import { readBoundedJson } from './read-bounded';
import type { ReadDocument } from './read-document';
import { openBytes, openJson, readSealed, SEALED_BYTES_OVERHEAD, sealBytes, sealJson, Unauthentic, type DocumentKey } from './seal-envelope';
import { needsPassphrase, passphraseChanged } from './sealing-errors';
import { badAnswer, statusError } from './sync-error';
import { KEY_DOC_ID, keyRecordBody, readKeyRecord, type KeyRecord } from './sync-key';

/** Bytes of sealed bodies one `_bulk_docs` request carries (sealing makes a batch about a third larger). */
const REQUEST_BYTES = 1024 * 1024;
/** The fields a sealed document shows the server besides its sealed body. */
const OUTSIDE = new Set(['_id', '_rev', '_conflicts', 'sealed']);

/** The server's key record: its revision, and the record (null when it is there but unreadable). */
export interface ServerKeyRecord {
	rev: string;
	record: KeyRecord | null;
}

/** What a database holds besides its key record: nothing yet, encrypted documents, or plain ones. */
export type DatabaseState = 'empty' | 'sealed' | 'plain';

export class SealedClient extends CouchClient {
	/** The keys while the database is encrypted; null while it is not (as far as this device knows). */
	keyring: Keyring | null = null;
	readonly #now: () => number;

	constructor(options: CouchClientOptions) {
		super(options);
		this.#now = options.now ?? Date.now;
	}

	get sealed(): boolean {
		return this.keyring !== null;
	}

	/** The key a document sealed with `kid` opens with: the current one, or the one before a passphrase change while it lasts. */
	#keyFor(kid: string): DocumentKey | null {
		const keyring = this.keyring;
		if (!keyring) return null;
		if (kid === keyring.current.kid) return keyring.current;
		const previous = keyring.previous;
		return previous && kid === previous.kid && (keyring.change || this.#now() < previous.until) ? previous : null;
	}

	override async bulkDocs(bodies: readonly Record<string, unknown>[], signal?: AbortSignal): Promise<BulkResult[]> {
		const key = this.keyring?.current;
		if (!key) return super.bulkDocs(bodies, signal);
		const sealed = await Promise.all(bodies.map((body) => sealBody(key, body)));
		const results: BulkResult[] = [];
		let chunk: Record<string, unknown>[] = [];
		let bytes = 0;
		for (const body of sealed) {
			const size = sealedBytes(body);
			if (chunk.length && bytes + size > REQUEST_BYTES) {
				results.push(...(await super.bulkDocs(chunk, signal)));
				chunk = [];
				bytes = 0;
			}
			chunk.push(body);
			bytes += size;
		}
		if (chunk.length) results.push(...(await super.bulkDocs(chunk, signal)));
		return results;
	}

	/** Writes bodies as they are (already sealed, or deletions). */
	writeRaw(bodies: readonly Record<string, unknown>[], signal?: AbortSignal): Promise<BulkResult[]> {
		return super.bulkDocs(bodies, signal);
	}

	override async putBlob(docId: string, data: Blob, signal?: AbortSignal): Promise<boolean> {
		const key = this.keyring?.current;
		if (!key) return super.putBlob(docId, data, signal);
		const body = await sealBlob(key, docId, data.type || 'application/octet-stream', new Uint8Array(await data.arrayBuffer()));
		return (await this.putRaw(docId, body, signal)) !== null;
	}

	/** Writes one document as it is (`_rev` inside for an update); its new revision, or null when it met another (409). */
	async putRaw(docId: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<string | null> {
		const response = await this.request('PUT', `/${encodeURIComponent(docId)}`, { body: JSON.stringify(body), signal });
		if (response.status === 409) {
			await response.body?.cancel().catch(() => {});
			return null;
		}
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status);
		}
		const answer = await readBoundedJson(response, 64 * 1024);
		const rev = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>).rev : undefined;
		if (typeof rev !== 'string') throw badAnswer('a write without its revision');
		return rev;
	}

	override async getAttachment(docId: string, name: string, rev: string, { size, type }: { size: number; type: string }, signal?: AbortSignal): Promise<Blob | null> {
		const keyring = this.keyring;
		if (!keyring) return super.getAttachment(docId, name, rev, { size, type }, signal);
		const sealed = await this.getRawAttachment(docId, name, rev, size + SEALED_BYTES_OVERHEAD, signal);
		if (!sealed) return null;
		for (const key of [keyring.current, keyring.previous]) {
			if (!key || !this.#keyFor(key.kid)) continue;
			try {
				return new Blob([await openBytes(key, docId, name, sealed)], { type });
			} catch (error) {
				if (!(error instanceof Unauthentic)) throw error;
			}
		}
		throw badAnswer(`attachment ${name} of ${docId} fails to authenticate`);
	}

	/** An attachment's bytes as the server holds them, exactly `bytes` of them (null: gone). */
	async getRawAttachment(docId: string, name: string, rev: string, bytes: number, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer> | null> {
		const blob = await super.getAttachment(docId, name, rev, { size: bytes, type: 'application/octet-stream' }, signal);
		return blob && new Uint8Array(await blob.arrayBuffer());
	}

	/** The server's key record, or null when it has none. */
	async readKeyRecord(signal?: AbortSignal): Promise<ServerKeyRecord | null> {
		const response = await this.request('GET', `/${KEY_DOC_ID}`, { signal });
		if (response.status === 404) {
			await response.body?.cancel().catch(() => {});
			return null;
		}
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status);
		}
		const body = await readBoundedJson(response, 64 * 1024);
		const rev = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)._rev : undefined;
		if (typeof rev !== 'string') throw badAnswer('a key record without its revision');
		return { rev, record: readKeyRecord(body) };
	}

	/** Writes the key record over revision `rev` (null: there is none); its new revision, or null when another was written meanwhile. */
	writeKeyRecord(record: KeyRecord, rev: string | null, signal?: AbortSignal): Promise<string | null> {
		return this.putRaw(KEY_DOC_ID, keyRecordBody(record, rev), signal);
	}

	/** Whether the database holds documents besides its key record, and whether they are encrypted (the first one tells). */
	async databaseState(signal?: AbortSignal): Promise<DatabaseState> {
		// Sync's own documents sort after the server's design documents (`_design/…`), which say nothing here.
		const answer = await this.call('GET', `/_all_docs?${new URLSearchParams({ include_docs: 'true', startkey: JSON.stringify('a'), limit: '2' })}`, { signal });
		const rows = isObject(answer) && Array.isArray(answer.rows) ? answer.rows : null;
		if (!rows) throw badAnswer('a list of documents without rows');
		const first = rows.find((row) => isObject(row) && row.id !== KEY_DOC_ID);
		if (!first) return 'empty';
		return isObject(first.doc) && first.doc.sealed !== undefined ? 'sealed' : 'plain';
	}

	/** How many documents the database holds (the server's own count). */
	async documentCount(signal?: AbortSignal): Promise<number | null> {
		const answer = await this.call('GET', '', { signal });
		return isObject(answer) && typeof answer.doc_count === 'number' ? answer.doc_count : null;
	}

	/** A page of the changes feed with its documents as the server holds them (to re-encrypt). */
	async rawChanges(since: string, limit: number, signal?: AbortSignal): Promise<{ docs: Record<string, unknown>[]; count: number; lastSeq: string }> {
		const answer = await this.call('GET', `/_changes?${new URLSearchParams({ since, limit: String(limit), include_docs: 'true' })}`, { signal });
		if (!isObject(answer) || !Array.isArray(answer.results)) throw badAnswer('a changes feed without results');
		const lastSeq = typeof answer.last_seq === 'number' ? String(answer.last_seq) : answer.last_seq;
		if (typeof lastSeq !== 'string' || !lastSeq || lastSeq.length > 2_000) throw badAnswer('a changes feed without a readable last_seq');
		const docs = answer.results.flatMap((change: unknown) => (isObject(change) && isObject(change.doc) ? [change.doc] : []));
		return { docs, count: answer.results.length, lastSeq };
	}

	protected override async readDocs(docs: readonly unknown[]): Promise<(ReadDocument | null)[]> {
		// A document under a key this device lacks asks the server once a page whether the passphrase changed.
		let moved: Promise<boolean> | null = null;
		const keyMoved = () => (moved ??= this.#keyMoved());
		return Promise.all(docs.map((doc) => this.#open(doc, keyMoved)));
	}

	/** Whether the server's key record names another key than this device's (the passphrase was changed elsewhere). */
	async #keyMoved(): Promise<boolean> {
		const found = await this.readKeyRecord();
		return !!found?.record && found.record.kid !== this.keyring?.current.kid;
	}

	async #open(doc: unknown, keyMoved: () => Promise<boolean>): Promise<ReadDocument | null> {
		if (!isObject(doc) || typeof doc._id !== 'string') return this.readOne(doc);
		const id = doc._id;
		if (id === KEY_DOC_ID) {
			// Checked at the start of each pass; one that arrives names either this device's key or another.
			if (doc._deleted === true) return null;
			const record = readKeyRecord(doc);
			if (this.keyring && (!record || record.kid === this.keyring.current.kid)) return null;
			throw this.keyring ? passphraseChanged() : needsPassphrase();
		}
		if (doc._deleted === true) return this.readOne(doc);
		if (!this.keyring) {
			if (doc.sealed !== undefined) throw needsPassphrase();
			return this.readOne(doc);
		}
		const refuse = (why: string): ReadDocument => ({ kind: 'refused', id: id.slice(0, 300), reason: `Document ${JSON.stringify(id.slice(0, 300))} is refused: ${why}.`, forged: true });
		const sealed = readSealed(doc.sealed);
		if (!sealed) return refuse('it is not encrypted with this database’s key');
		const outside = Object.keys(doc).find((key) => !OUTSIDE.has(key) && !(key === '_attachments' && id.startsWith(BLOB_PREFIX)));
		if (outside) return refuse(`it has “${outside.slice(0, 40)}” outside its encrypted body`);
		const key = this.#keyFor(sealed.kid);
		if (!key) {
			if (await keyMoved()) throw passphraseChanged();
			return refuse('it is sealed with a key this database does not use');
		}
		let body: unknown;
		try {
			body = await openJson(key, id, sealed);
		} catch (error) {
			if (!(error instanceof Unauthentic)) throw error;
			return refuse('it fails to authenticate (it was changed on the server, or written without the passphrase)');
		}
		if (!isObject(body) || Object.keys(body).some((field) => field.startsWith('_'))) return refuse('its encrypted body is not a document');
		const opened: Record<string, unknown> = { ...body, _id: id, _rev: doc._rev };
		if (doc._conflicts !== undefined) opened._conflicts = doc._conflicts;
		if (id.startsWith(BLOB_PREFIX)) {
			// The Blob's type and size are sealed; the server sees only the sealed bytes' length.
			const { type, size, ...rest } = body;
			const stub = isObject(doc._attachments) && isObject(doc._attachments.data) ? doc._attachments.data : null;
			if (!stub || typeof size !== 'number' || stub.length !== size + SEALED_BYTES_OVERHEAD || Object.keys(rest).length) return refuse('its attachment is not what its encrypted body says');
			return this.readOne({ _id: id, _rev: doc._rev, _attachments: { data: { content_type: type, length: size, stub: true } } });
		}
		return this.readOne(opened);
	}
}

/** A body sealed for the server: its id and revision outside, the rest inside (a deletion goes as it is). */
async function sealBody(key: DocumentKey, body: Record<string, unknown>): Promise<Record<string, unknown>> {
	if (body._deleted === true) return body;
	const { _id, _rev, ...rest } = body;
	return { _id, ...(_rev !== undefined ? { _rev } : {}), sealed: await sealJson(key, String(_id), rest) };
}

/** About what a sealed body adds to a request (its ciphertext and ids; a deletion is small). */
function sealedBytes(body: Record<string, unknown>): number {
	const sealed = body.sealed as { ct: string } | undefined;
	return (sealed?.ct.length ?? 0) + String(body._id).length + String(body._rev ?? '').length + 120;
}

/** A blob document sealed for the server: its type and size inside its body, its bytes sealed as attachment `data`. */
export async function sealBlob(key: DocumentKey, docId: string, type: string, bytes: Uint8Array<ArrayBuffer>): Promise<Record<string, unknown>> {
	const [sealed, data] = await Promise.all([sealJson(key, docId, { type, size: bytes.byteLength }), sealBytes(key, docId, 'data', bytes)]);
	return { sealed, _attachments: { data: { content_type: 'application/octet-stream', data: toBase64(data) } } };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
