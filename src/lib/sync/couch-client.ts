// CouchDB's HTTP document API, as far as sync needs it: cookie login, `_bulk_docs`, the changes
// feed and `_all_docs`. Every answer is hostile input: read within a bound, its shape checked,
// and each document read with readDocument; a document that does not fit is skipped with its
// reason, never handed on.
import { jsonBytes } from './pending-body';
import { readBoundedChunks, readBoundedJson } from './read-bounded';
import { readDocument, type ReadDocument } from './read-document';
import { badAnswer, formatBytes, statusError, SyncError, unreachable } from './sync-error';
import type { PulledDoc } from './sync-store';

/** A CouchDB user's name and password, held by the caller in memory only, never stored. */
export interface Credentials {
	name: string;
	password: string;
}

export interface CouchClientOptions {
	/** The database's URL, e.g. `https://couch.example.com/userdb-…`. */
	url: string;
	fetch?: typeof fetch;
	/** The credentials the caller holds now, or null: an expired cookie is renewed only while it holds them. */
	credentials?: () => Credentials | null;
	/** Bytes one answer may carry (default 32 MB). */
	maxResponseBytes?: number;
	/** Bytes one document may take (default 8 MB, CouchDB's max_document_size): a larger one is skipped. */
	maxDocumentBytes?: number;
}

export type BulkResult = { id: string; ok: true; rev: string } | { id: string; ok: false; error: string; reason: string };

/** A document left unread, and why. */
export interface Skipped {
	id: string | null;
	reason: string;
}

export interface ChangesPage {
	docs: PulledDoc[];
	skipped: Skipped[];
	/** The changes this page held, read or skipped. */
	count: number;
	/** Their document ids, in order (null where unreadable). */
	ids: (string | null)[];
	lastSeq: string;
	/** Changes still to come after this page, when the server says (CouchDB does, pouchdb-server does not). */
	pending: number | null;
}

export interface ChangesRequest {
	since: string;
	limit: number;
	/** False lists only the ids and seqs (to step past a change too large to read). */
	includeDocs?: boolean;
	/** Wait up to this long for a change when there is none yet (`feed=longpoll`). */
	longPollMs?: number;
	signal?: AbortSignal;
}

/** A document as `_all_docs` knows it. */
export type FetchedDoc = { state: 'missing' } | { state: 'deleted'; rev: string } | { state: 'present'; rev: string; read: ReadDocument };

const MAX_SEQ_CHARS = 2_000;
const MAX_ERROR_CHARS = 300;

export class CouchClient {
	private readonly db: string;
	private readonly fetchImpl: typeof fetch;
	private readonly credentials: () => Credentials | null;
	private readonly maxResponseBytes: number;
	readonly maxDocumentBytes: number;
	/** The session cookie where the runtime lets it be read (Node); a browser keeps its own. */
	private cookie: string | null = null;
	private loggingIn: Promise<void> | null = null;

	constructor(options: CouchClientOptions) {
		this.db = options.url.replace(/\/+$/, '');
		this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
		this.credentials = options.credentials ?? (() => null);
		this.maxResponseBytes = options.maxResponseBytes ?? 32 * 1024 * 1024;
		this.maxDocumentBytes = options.maxDocumentBytes ?? 8 * 1024 * 1024;
	}

	/** Logs in with the caller's credentials (`POST /_session`), which sets the session cookie. */
	login(signal?: AbortSignal): Promise<void> {
		this.loggingIn ??= this.postSession(signal).finally(() => (this.loggingIn = null));
		return this.loggingIn;
	}

	/** Writes `bodies`; one result per document, in their order. */
	async bulkDocs(bodies: readonly Record<string, unknown>[], signal?: AbortSignal): Promise<BulkResult[]> {
		const answer = await this.call('POST', '/_bulk_docs', { body: JSON.stringify({ docs: bodies }), signal });
		if (!Array.isArray(answer) || answer.length !== bodies.length) throw badAnswer('the results of a write do not match its documents');
		return answer.map((result: unknown, at) => {
			const id = bodies[at]._id as string;
			if (!isObject(result) || (result.id !== undefined && result.id !== id)) throw badAnswer('the results of a write do not match its documents');
			if (typeof result.rev === 'string' && result.error === undefined) return { id, ok: true, rev: result.rev };
			return { id, ok: false, error: text(result.error) || 'unknown', reason: text(result.reason) };
		});
	}

	/** One page of the changes feed after `since`, its documents read as hostile input. */
	async changes(request: ChangesRequest): Promise<ChangesPage> {
		const query = new URLSearchParams({ since: request.since, limit: String(request.limit) });
		if (request.includeDocs !== false) query.set('include_docs', 'true');
		const signals = request.signal ? [request.signal] : [];
		let timer: ReturnType<typeof setTimeout> | undefined;
		const waited = new AbortController();
		if (request.longPollMs !== undefined) {
			query.set('feed', 'longpoll');
			query.set('timeout', String(request.longPollMs));
			// Some servers ignore `timeout`: the wait also ends here, a little after it.
			timer = setTimeout(() => waited.abort(), request.longPollMs + 5_000);
			signals.push(waited.signal);
		}
		let answer: unknown;
		try {
			answer = await this.call('GET', `/_changes?${query}`, { signal: signals.length ? AbortSignal.any(signals) : undefined });
		} catch (error) {
			if (waited.signal.aborted && !request.signal?.aborted) return { docs: [], skipped: [], count: 0, ids: [], lastSeq: request.since, pending: null };
			throw error;
		} finally {
			clearTimeout(timer);
		}
		return this.readChanges(answer, request);
	}

	/** The server's copies of `ids` (for a write that met another revision). */
	async fetchDocs(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, FetchedDoc>> {
		const answer = await this.call('POST', '/_all_docs?include_docs=true', { body: JSON.stringify({ keys: ids }), signal });
		const rows = isObject(answer) ? answer.rows : undefined;
		if (!Array.isArray(rows)) throw badAnswer('a list of documents without rows');
		const found = new Map<string, FetchedDoc>(ids.map((id) => [id, { state: 'missing' }]));
		for (const row of rows) {
			if (!isObject(row) || typeof row.key !== 'string' || !found.has(row.key)) continue;
			const value = row.value;
			if (!isObject(value) || typeof value.rev !== 'string') continue;
			if (value.deleted === true) found.set(row.key, { state: 'deleted', rev: value.rev });
			else found.set(row.key, { state: 'present', rev: value.rev, read: this.readOne(row.doc) });
		}
		return found;
	}

	/**
	 * Adds `data` to revision `rev` of document `docId` as attachment `name` (a standalone PUT:
	 * the request carries the Blob's bytes as they are, streamed from where the browser keeps
	 * them, never as base64 in memory). Returns the document's new revision.
	 */
	async putAttachment(docId: string, name: string, rev: string, data: Blob, signal?: AbortSignal): Promise<string> {
		const path = `/${encodeURIComponent(docId)}/${encodeURIComponent(name)}?${new URLSearchParams({ rev })}`;
		const response = await this.request('PUT', path, { body: data, type: data.type || 'application/octet-stream', signal });
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw response.status === 404 ? statusError(409) : statusError(response.status);
		}
		const answer = await readBoundedJson(response, 64 * 1024);
		if (!isObject(answer) || typeof answer.rev !== 'string') throw badAnswer('a stored attachment without its revision');
		return answer.rev;
	}

	/**
	 * Attachment `name` of revision `rev` of `docId`, read up to `size` bytes (what its message
	 * says it holds): more or fewer fails. Null when the server no longer has it.
	 */
	async getAttachment(docId: string, name: string, rev: string, { size, type }: { size: number; type: string }, signal?: AbortSignal): Promise<Blob | null> {
		const path = `/${encodeURIComponent(docId)}/${encodeURIComponent(name)}?${new URLSearchParams({ rev })}`;
		const response = await this.request('GET', path, { accept: '*/*', signal });
		if (response.status === 404) {
			await response.body?.cancel().catch(() => {});
			return null;
		}
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status);
		}
		const { chunks, bytes: seen } = await readBoundedChunks(response, size, () => badAnswer(`attachment ${name} is larger than its message says`));
		if (seen !== size) throw badAnswer(`attachment ${name} is smaller than its message says`);
		return new Blob(chunks, { type });
	}

	private readChanges(answer: unknown, request: ChangesRequest): ChangesPage {
		if (!isObject(answer) || !Array.isArray(answer.results)) throw badAnswer('a changes feed without results');
		const results = answer.results;
		if (results.length > request.limit) throw badAnswer('more changes than were asked for');
		const lastSeq = readSeq(answer.last_seq);
		if (lastSeq === null) throw badAnswer('a changes feed without a readable last_seq');
		const ids = results.map((change: unknown) => (isObject(change) && typeof change.id === 'string' ? change.id.slice(0, MAX_ERROR_CHARS) : null));
		const page: ChangesPage = { docs: [], skipped: [], count: results.length, ids, lastSeq, pending: null };
		if (typeof answer.pending === 'number' && Number.isSafeInteger(answer.pending) && answer.pending >= 0) page.pending = answer.pending;
		if (request.includeDocs === false) return page;
		for (const [at, change] of results.entries()) {
			const id = ids[at];
			if (!isObject(change) || !isObject(change.doc)) {
				page.skipped.push({ id, reason: `${id === null ? 'A change' : `Document ${JSON.stringify(id)}`} is refused: it came without its document.` });
				continue;
			}
			const read = this.readOne(change.doc);
			if (read.kind === 'refused') page.skipped.push({ id: read.id, reason: read.reason });
			else page.docs.push(read);
		}
		return page;
	}

	/** A document within the size bound, read as hostile input. */
	private readOne(doc: unknown): ReadDocument {
		if (jsonBytes(doc) > this.maxDocumentBytes) {
			const id = isObject(doc) && typeof doc._id === 'string' ? doc._id.slice(0, MAX_ERROR_CHARS) : null;
			return { kind: 'refused', id, reason: `${id === null ? 'A document' : `Document ${JSON.stringify(id)}`} is refused: it is larger than ${formatBytes(this.maxDocumentBytes)}.` };
		}
		return readDocument(doc);
	}

	private async postSession(signal?: AbortSignal): Promise<void> {
		const credentials = this.credentials();
		if (!credentials) throw statusError(401);
		const url = new URL('../_session', `${this.db}/`).href;
		const response = await this.send('POST', url, JSON.stringify({ name: credentials.name, password: credentials.password }), signal);
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status, true);
		}
		const cookie = response.headers.getSetCookie?.().find((line) => line.startsWith('AuthSession='));
		if (cookie) this.cookie = cookie.split(';')[0];
		await readBoundedJson(response, 64 * 1024);
	}

	/** A request to the database, answered in JSON; a 401 logs in again, once, while the caller holds credentials. */
	private async call(method: string, path: string, { body, signal }: { body?: string; signal?: AbortSignal }): Promise<unknown> {
		const response = await this.request(method, path, { body, signal });
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status);
		}
		return readBoundedJson(response, this.maxResponseBytes);
	}

	/** A request to the database, its answer unread; a 401 logs in again, once, while the caller holds credentials. */
	private async request(method: string, path: string, { body, type, accept, signal }: { body?: BodyInit; type?: string; accept?: string; signal?: AbortSignal }): Promise<Response> {
		let response = await this.send(method, this.db + path, body, signal, type, accept);
		if (response.status === 401 && this.credentials()) {
			await response.body?.cancel().catch(() => {});
			await this.login(signal);
			response = await this.send(method, this.db + path, body, signal, type, accept);
		}
		return response;
	}

	private async send(method: string, url: string, body: BodyInit | undefined, signal: AbortSignal | undefined, type = 'application/json', accept = 'application/json'): Promise<Response> {
		const headers: Record<string, string> = { accept };
		if (body !== undefined) headers['content-type'] = type;
		if (this.cookie) headers.cookie = this.cookie;
		try {
			return await this.fetchImpl(url, { method, headers, body, signal, credentials: 'include' });
		} catch (error) {
			if (signal?.aborted || error instanceof SyncError) throw signal?.reason ?? error;
			throw unreachable();
		}
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.slice(0, MAX_ERROR_CHARS) : '';
}

/** A seq as CouchDB (an opaque string) or PouchDB (a number) writes it. */
function readSeq(value: unknown): string | null {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	if (typeof value === 'string' && value.length > 0 && value.length <= MAX_SEQ_CHARS) return value;
	return null;
}
