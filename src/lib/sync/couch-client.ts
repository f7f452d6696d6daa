// CouchDB's HTTP document API, as far as sync needs it: cookie login, `_bulk_docs`, the changes
// feed and `_all_docs`. Every answer is hostile input: read within a bound, its shape checked,
// and each document read with readDocument; a document that does not fit is skipped with its
// reason, never handed on.
import { jsonBytes, jsonText } from './pending-body';
import { readBoundedChunks, readBoundedJson } from './read-bounded';
import { readDocument, type ReadDocument } from './read-document';
import type { BulkResult, ChangesPage, ChangesRequest, CouchClientOptions, Credentials, FetchedDoc, Skipped } from './couch-types';
import { badAnswer, createRefused, formatBytes, statusError, SyncError, unreachable } from './sync-error';

export type { BulkResult, ChangesPage, ChangesRequest, CouchClientOptions, Credentials, FetchedDoc, Skipped } from './couch-types';

const MAX_SEQ_CHARS = 2_000;
const MAX_ERROR_CHARS = 300;

export class CouchClient {
	private readonly db: string;
	private readonly fetchImpl: typeof fetch;
	private readonly credentials: () => Credentials | null;
	private readonly maxResponseBytes: number;
	readonly maxDocumentBytes: number;
	private readonly now: () => number;
	/** The session cookie where the runtime lets it be read (Node); a browser keeps its own. */
	private cookie: string | null = null;
	private loggingIn: Promise<void> | null = null;

	constructor(options: CouchClientOptions) {
		this.db = options.url.replace(/\/+$/, '');
		this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
		this.credentials = options.credentials ?? (() => null);
		this.maxResponseBytes = options.maxResponseBytes ?? 32 * 1024 * 1024;
		this.maxDocumentBytes = options.maxDocumentBytes ?? 8 * 1024 * 1024;
		this.now = options.now ?? Date.now;
	}

	/** The database's address, as given. */
	get url(): string {
		return this.db;
	}

	/** Logs in with the caller's credentials (`POST /_session`), which sets the session cookie. */
	login(signal?: AbortSignal): Promise<void> {
		this.loggingIn ??= this.postSession(signal).finally(() => (this.loggingIn = null));
		return this.loggingIn;
	}

	/**
	 * Writes `bodies` (no id twice); one result per document, in their order. Results are matched
	 * by id: CouchDB answers in the order asked, pouchdb-server does not always.
	 */
	async bulkDocs(bodies: readonly Record<string, unknown>[], signal?: AbortSignal): Promise<BulkResult[]> {
		// Each body's JSON as measured when its batch was filled (written here when it was not).
		const answer = await this.call('POST', '/_bulk_docs', { body: `{"docs":[${bodies.map(jsonText).join(',')}]}`, signal });
		const mismatch = () => badAnswer('the results of a write do not match its documents');
		if (!Array.isArray(answer) || answer.length !== bodies.length) throw mismatch();
		const byId = new Map<string, Record<string, unknown>>();
		for (const result of answer) {
			if (!isObject(result) || typeof result.id !== 'string' || byId.has(result.id)) throw mismatch();
			byId.set(result.id, result);
		}
		return bodies.map((body) => {
			const id = body._id as string;
			const result = byId.get(id);
			if (!result) throw mismatch();
			if (typeof result.rev === 'string' && result.error === undefined) return { id, ok: true, rev: result.rev };
			return { id, ok: false, error: text(result.error) || 'unknown', reason: text(result.reason) };
		});
	}

	/** One page of the changes feed after `since`, its documents read as hostile input. */
	async changes(request: ChangesRequest): Promise<ChangesPage> {
		const query = new URLSearchParams({ since: request.since, limit: String(request.limit) });
		if (request.includeDocs !== false) {
			query.set('include_docs', 'true');
			// Each document with the revisions that conflict with it, to merge them all.
			query.set('conflicts', 'true');
		} else if (request.leaves) query.set('style', 'all_docs');
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

	/** The server's copies of `ids` (for a write that met another revision), with their conflicting revisions. */
	async fetchDocs(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, FetchedDoc>> {
		const answer = await this.call('POST', '/_all_docs?include_docs=true&conflicts=true', { body: JSON.stringify({ keys: ids }), signal });
		const rows = isObject(answer) ? answer.rows : undefined;
		if (!Array.isArray(rows)) throw badAnswer('a list of documents without rows');
		const found = new Map<string, FetchedDoc>(ids.map((id) => [id, { state: 'missing' }]));
		const present: { id: string; rev: string; doc: unknown }[] = [];
		for (const row of rows) {
			if (!isObject(row) || typeof row.key !== 'string' || !found.has(row.key)) continue;
			const value = row.value;
			if (!isObject(value) || typeof value.rev !== 'string') continue;
			if (value.deleted === true) found.set(row.key, { state: 'deleted', rev: value.rev });
			else present.push({ id: row.key, rev: value.rev, doc: row.doc });
		}
		const read = await this.readDocs(present.map((row) => row.doc));
		present.forEach((row, at) => found.set(row.id, { state: 'present', rev: row.rev, read: read[at] ?? this.readOne(null) }));
		return found;
	}

	/**
	 * The documents at `ids` as the changes feed gives them (with the revisions that conflict with
	 * each, a deletion as its tombstone), each read as hostile input; one the server lacks is left out.
	 */
	async readCurrent(ids: readonly string[], signal?: AbortSignal): Promise<{ docs: ReadDocument[]; skipped: Skipped[] }> {
		const answer = await this.call('POST', '/_all_docs?include_docs=true&conflicts=true', { body: JSON.stringify({ keys: ids }), signal });
		const rows = isObject(answer) ? answer.rows : undefined;
		if (!Array.isArray(rows)) throw badAnswer('a list of documents without rows');
		const wanted = new Set(ids);
		const bodies = rows.flatMap((row: unknown) => {
			if (!isObject(row) || typeof row.key !== 'string' || !wanted.has(row.key) || !isObject(row.value) || typeof row.value.rev !== 'string') return [];
			if (row.value.deleted === true) return [{ _id: row.key, _rev: row.value.rev, _deleted: true }];
			return isObject(row.doc) ? [row.doc] : [];
		});
		const page: { docs: ReadDocument[]; skipped: Skipped[] } = { docs: [], skipped: [] };
		for (const read of await this.readDocs(bodies)) {
			if (read === null) continue;
			if (read.kind === 'refused') page.skipped.push({ id: read.id, reason: read.reason });
			else page.docs.push(read);
		}
		return page;
	}

	/** Revisions `revs` of document `id` (the branches that conflict with its winner), each read as hostile input. */
	async fetchRevisions(id: string, revs: readonly string[], signal?: AbortSignal): Promise<ReadDocument[]> {
		const query = new URLSearchParams({ open_revs: JSON.stringify(revs) });
		const answer = await this.call('GET', `/${encodeURIComponent(id)}?${query}`, { signal });
		if (!Array.isArray(answer)) throw badAnswer('the revisions of a document without a list');
		const read = await this.readDocs(answer.flatMap((entry: unknown) => (isObject(entry) && isObject(entry.ok) ? [entry.ok] : [])));
		return read.filter((doc) => doc !== null);
	}

	/** Every document whose id is in [start, end], read as hostile input, a page at a time (a session's documents, read again). */
	async readRange(start: string, end: string, signal?: AbortSignal): Promise<{ docs: ReadDocument[] }> {
		const docs: ReadDocument[] = [];
		let from = start;
		let skip = 0;
		for (;;) {
			const query = new URLSearchParams({ include_docs: 'true', conflicts: 'true', startkey: JSON.stringify(from), endkey: JSON.stringify(end), limit: '200', skip: String(skip) });
			const answer = await this.call('GET', `/_all_docs?${query}`, { signal });
			const rows = isObject(answer) ? answer.rows : undefined;
			if (!Array.isArray(rows)) throw badAnswer('a list of documents without rows');
			for (const doc of await this.readDocs(rows.flatMap((row) => (isObject(row) && isObject(row.doc) ? [row.doc] : [])))) if (doc) docs.push(doc);
			if (rows.length < 200) return { docs };
			const last = rows.at(-1);
			from = isObject(last) && typeof last.key === 'string' ? last.key : end;
			skip = 1;
		}
	}

	/** This device's `_local` document, or null when the database has none (another database, or this one recreated). */
	async readLocal(name: string, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
		const response = await this.request('GET', `/_local/${encodeURIComponent(name)}`, { signal });
		if (response.status === 404) {
			await response.body?.cancel().catch(() => {});
			return null;
		}
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status);
		}
		const answer = await readBoundedJson(response, 64 * 1024);
		return isObject(answer) ? answer : null;
	}

	/** Writes this device's `_local` document (never replicated, so a copy of the database lacks it). */
	async writeLocal(name: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<void> {
		const current = await this.readLocal(name, signal);
		const rev = current && typeof current._rev === 'string' ? { _rev: current._rev } : {};
		await this.call('PUT', `/_local/${encodeURIComponent(name)}`, { body: JSON.stringify({ ...body, ...rev }), signal });
	}

	/**
	 * Creates the database (PUT; logging in first when the server asks and the caller holds
	 * credentials). One there already is fine; a server that will not create it throws why.
	 */
	async createDatabase(signal?: AbortSignal): Promise<void> {
		const response = await this.request('PUT', '', { signal });
		await response.body?.cancel().catch(() => {});
		if (response.status === 201 || response.status === 202 || response.status === 412) return;
		if (response.status === 401 || response.status === 403) throw createRefused(response.status, this.credentials() !== null);
		throw statusError(response.status);
	}

	/**
	 * Stores a Blob's bytes as attachment `data` of a document of its own, made by this request
	 * (no revision: one there already holds the same bytes, as Blobs never change). False when it
	 * was there.
	 */
	async putBlob(docId: string, data: Blob, signal?: AbortSignal): Promise<boolean> {
		const response = await this.request('PUT', `/${encodeURIComponent(docId)}/data`, { body: data, type: data.type || 'application/octet-stream', signal });
		await response.body?.cancel().catch(() => {});
		if (response.status === 409) return false;
		if (!response.ok) throw statusError(response.status);
		return true;
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

	private async readChanges(answer: unknown, request: ChangesRequest): Promise<ChangesPage> {
		if (!isObject(answer) || !Array.isArray(answer.results)) throw badAnswer('a changes feed without results');
		const results = answer.results;
		if (results.length > request.limit) throw badAnswer('more changes than were asked for');
		const lastSeq = readSeq(answer.last_seq);
		if (lastSeq === null) throw badAnswer('a changes feed without a readable last_seq');
		const ids = results.map((change: unknown) => (isObject(change) && typeof change.id === 'string' ? change.id.slice(0, MAX_ERROR_CHARS) : null));
		const page: ChangesPage = { docs: [], skipped: [], count: results.length, ids, lastSeq, pending: null };
		if (typeof answer.pending === 'number' && Number.isSafeInteger(answer.pending) && answer.pending >= 0) page.pending = answer.pending;
		if (request.includeDocs === false) {
			if (request.leaves) page.leaves = results.map(readLeaves);
			return page;
		}
		const bodies = results.map((change: unknown) => (isObject(change) && isObject(change.doc) ? change.doc : null));
		const docs = await this.readDocs(bodies.filter((body) => body !== null));
		let next = 0;
		for (const [at, body] of bodies.entries()) {
			const id = ids[at];
			if (body === null) {
				page.skipped.push({ id, reason: `${id === null ? 'A change' : `Document ${JSON.stringify(id)}`} is refused: it came without its document.` });
				continue;
			}
			const read = docs[next++];
			if (read === null) continue;
			if (read.kind === 'refused') page.skipped.push({ id: read.id, reason: read.reason });
			else page.docs.push(read);
		}
		return page;
	}

	/**
	 * Documents as the server sent them, each read as hostile input, in order; null for one that
	 * is not sync's to read (an encrypting client opens each first, and passes over its key record).
	 */
	protected async readDocs(docs: readonly unknown[]): Promise<(ReadDocument | null)[]> {
		return docs.map((doc) => this.readOne(doc));
	}

	/** A document within the size bound, read as hostile input. */
	protected readOne(doc: unknown): ReadDocument {
		if (jsonBytes(doc) > this.maxDocumentBytes) {
			const id = isObject(doc) && typeof doc._id === 'string' ? doc._id.slice(0, MAX_ERROR_CHARS) : null;
			return { kind: 'refused', id, reason: `${id === null ? 'A document' : `Document ${JSON.stringify(id)}`} is refused: it is larger than ${formatBytes(this.maxDocumentBytes)}.` };
		}
		return readDocument(doc, this.now());
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
	protected async call(method: string, path: string, { body, signal }: { body?: string; signal?: AbortSignal }): Promise<unknown> {
		const response = await this.request(method, path, { body, signal });
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status);
		}
		return readBoundedJson(response, this.maxResponseBytes);
	}

	/** A request to the database, its answer unread; a 401 logs in again, once, while the caller holds credentials. */
	protected async request(method: string, path: string, { body, type, accept, signal }: { body?: BodyInit; type?: string; accept?: string; signal?: AbortSignal }): Promise<Response> {
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

/** A change's leaf revisions (at most a hundred; null for anything else), and whether it is a deletion. */
function readLeaves(change: unknown): { revs: string[]; deleted: boolean } | null {
	if (!isObject(change) || !Array.isArray(change.changes) || !change.changes.length || change.changes.length > 100) return null;
	const revs = change.changes.map((entry: unknown) => (isObject(entry) && typeof entry.rev === 'string' && entry.rev.length <= MAX_ERROR_CHARS ? entry.rev : null));
	return revs.every((rev): rev is string => rev !== null) ? { revs, deleted: change.deleted === true } : null;
}

/** A seq as CouchDB (an opaque string) or PouchDB (a number) writes it. */
function readSeq(value: unknown): string | null {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	if (typeof value === 'string' && value.length > 0 && value.length <= MAX_SEQ_CHARS) return value;
	return null;
}
