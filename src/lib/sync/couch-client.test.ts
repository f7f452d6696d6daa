// The client against a real CouchDB-compatible server: a hostile document is skipped and counted
// (never applied), the login cookie is renewed only while the caller holds credentials, a
// request the server finds too large is split until each document goes alone, and write results
// are matched to their documents by id (pouchdb-server answers out of order).
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import { recordingFetch } from '../../../tests/support/recording-fetch';
import { Device } from '../../../tests/support/sync-device';
import { CouchClient, type Credentials } from './couch-client';
import { SyncLoop } from './sync-loop';
import { SyncError } from './sync-error';

let server: Awaited<ReturnType<typeof startCouchServer>>;
let databases = 0;

beforeAll(async () => {
	server = await startCouchServer();
	const user = await fetch(`${server.url}/_users/org.couchdb.user:ada`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'ada', password: 'correct horse', roles: [], type: 'user' })
	});
	expect(user.status).toBe(201);
});

afterAll(async () => {
	await server?.close();
});

async function newDatabase(): Promise<string> {
	const url = `${server.url}/userdb-client-${++databases}`;
	expect((await fetch(url, { method: 'PUT' })).status).toBe(201);
	return url;
}

async function put(db: string, body: Record<string, unknown>): Promise<void> {
	const response = await fetch(`${db}/_bulk_docs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ docs: [body] }) });
	expect(response.status).toBe(201);
}

/** The server's copy of a document. */
async function serverCopy(db: string, id: string): Promise<Record<string, unknown>> {
	return (await (await fetch(`${db}/${encodeURIComponent(id)}`)).json()) as Record<string, unknown>;
}

describe('documents from the server', () => {
	it('skips and counts a document of wrong types, of unknown fields or too large, and applies the rest', async () => {
		const db = await newDatabase();
		const a = new Device(db, 'a');
		const id = await a.newSession();
		await a.rename(id, 'Good');
		await a.send(id, 'kept');
		await a.sync();
		const good = await serverCopy(db, `session:${id}`);
		const [row] = await a.db.messages.toArray();
		const position = row.position.replace(/.$/, (c) => (c === 'Z' ? 'Y' : 'Z'));
		const message = await serverCopy(db, `msg:${id}:${row.position}`);
		await put(db, { ...good, _id: 'session:s2', _rev: undefined, fields: { ...(good.fields as object), title: 42 } });
		await put(db, { ...good, _id: 'session:s3', _rev: undefined, script: 'alert(1)' });
		await put(db, { ...message, _id: `msg:${id}:${position}`, _rev: undefined, fields: { ...(message.fields as object), id: 'm-huge', content: 'x'.repeat(100_000) } });
		const b = new Device(db, 'b');
		const small = new CouchClient({ url: db, maxDocumentBytes: 64 * 1024 });
		const outcome = await new SyncLoop({ store: b.store, client: small }).syncOnce();

		expect(outcome.skipped.map((skip) => skip.reason)).toEqual([
			expect.stringMatching(/^Document "session:s2" is refused: its “fields.title” is 42, expected/),
			'Document "session:s3" is refused: it has “script”, a field this app does not know.',
			`Document "msg:${id}:${position}" is refused: it is larger than 64 KB.`
		]);
		expect(await b.sessionIds()).toEqual([id]);
		expect(await b.contents(id)).toEqual(['kept', 'answer to kept']);
		// Skipped for good: the checkpoint moved past them.
		expect(await new SyncLoop({ store: b.store, client: small }).syncOnce()).toEqual({ pushed: 0, pulled: 0, skipped: [] });
		await a.close();
		await b.close();
	});

	it('steps past a change too large to read in one answer, one change at a time', async () => {
		const db = await newDatabase();
		const a = new Device(db, 'a');
		const id = await a.newSession();
		await a.send(id, 'first');
		await a.sync();
		const [row] = await a.db.messages.toArray();
		const huge = `msg:${id}:${row.position.slice(0, -1)}Z`;
		const message = await serverCopy(db, `msg:${id}:${row.position}`);
		await put(db, { ...message, _id: huge, _rev: undefined, fields: { ...(message.fields as object), id: 'm-huge', content: 'y'.repeat(300_000) } });
		await a.send(id, 'after');
		await a.sync();
		const b = new Device(db, 'b');
		const outcome = await new SyncLoop({ store: b.store, client: new CouchClient({ url: db, maxResponseBytes: 200 * 1024 }) }).syncOnce();

		expect(outcome.skipped).toEqual([{ id: huge, reason: expect.stringMatching(/is refused: The sync server sent more than 200 KB in one answer/) }]);
		expect(await b.contents(id)).toEqual(['first', 'answer to first', 'after', 'answer to after']);
		await a.close();
		await b.close();
	});

	it('matches the results of a write to its documents by id, whatever their order', async () => {
		const db = await newDatabase();
		const reversed: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			if (!String(input).endsWith('/_bulk_docs')) return response;
			return new Response(JSON.stringify(((await response.json()) as unknown[]).reverse()), { status: 201, headers: { 'content-type': 'application/json' } });
		};
		const client = new CouchClient({ url: db, fetch: reversed });
		const results = await client.bulkDocs([{ _id: 'x-1' }, { _id: 'x-2' }, { _id: 'x-3' }]);
		expect(results.map((result) => result.id)).toEqual(['x-1', 'x-2', 'x-3']);
		expect(results.every((result) => result.ok)).toBe(true);
	});
});

describe('logging in', () => {
	it('says the login was refused when the password is wrong', async () => {
		const client = new CouchClient({ url: `${server.url}/userdb-x`, credentials: () => ({ name: 'ada', password: 'wrong' }) });
		const error = await client.login().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(SyncError);
		expect((error as SyncError).reason).toBe('The sync server refused the login (401): check the username and password.');
	});

	it('renews an expired cookie by logging in again, only while the caller holds the credentials', async () => {
		const db = await newDatabase();
		let held: Credentials | null = { name: 'ada', password: 'correct horse' };
		const log: Parameters<typeof recordingFetch>[0] = [];
		const cookies: (string | undefined)[] = [];
		// The server's session: the cookie of the last login, until it expires.
		let valid: string | undefined;
		const expiring: typeof fetch = async (input, init) => {
			const cookie = (init?.headers as Record<string, string>).cookie;
			cookies.push(cookie);
			if (String(input).includes('/_changes') && (valid === undefined || cookie !== valid)) return new Response('{"error":"unauthorized"}', { status: 401 });
			const response = await fetch(input, init);
			if (String(input).endsWith('/_session')) valid = response.headers.getSetCookie()[0]?.split(';')[0];
			return response;
		};
		const client = new CouchClient({ url: db, fetch: recordingFetch(log, expiring), credentials: () => held });

		const page = await client.changes({ since: '0', limit: 10 });

		expect(page.count).toBe(0);
		expect(log.map(({ method, path, status }) => `${method} ${path.replace(db.slice(server.url.length), '')} ${status}`)).toEqual([
			'GET /_changes?since=0&limit=10&include_docs=true&conflicts=true 401',
			'POST /_session 200',
			'GET /_changes?since=0&limit=10&include_docs=true&conflicts=true 200'
		]);
		expect(cookies[2]).toMatch(/^AuthSession=/);
		expect(JSON.stringify(client)).not.toContain('correct horse');

		// The cookie expires after the user stopped sync and the app forgot the password: no login, a reason instead.
		valid = undefined;
		held = null;
		log.length = 0;
		const error = await client.changes({ since: '0', limit: 10 }).catch((caught: unknown) => caught);
		expect((error as SyncError).reason).toBe('The sync server asks for a login (401): enter a username and password.');
		expect(log.map(({ method }) => method)).toEqual(['GET']);
	});

	it('says the server cannot be reached when nothing listens at the address', async () => {
		const client = new CouchClient({ url: 'http://127.0.0.1:9/userdb-a' });
		const error = await client.changes({ since: '0', limit: 1 }).catch((caught: unknown) => caught);
		expect((error as SyncError).kind).toBe('unreachable');
		expect((error as SyncError).retry).toBe(true);
	});
});

describe('a request the server finds too large', () => {
	it('is split until it fits, and a lone document still too large is refused and counted', async () => {
		const db = await newDatabase();
		const log: Parameters<typeof recordingFetch>[0] = [];
		// A server (or proxy) that takes at most 3 KB a request.
		const small: typeof fetch = async (input, init) =>
			typeof init?.body === 'string' && init.body.length > 3_000 ? new Response('{"error":"too_large"}', { status: 413 }) : fetch(input, init);
		const a = new Device(db, 'a', { fetch: recordingFetch(log, small) });
		const id = await a.newSession();
		for (let i = 0; i < 6; i++) await a.send(id, `note ${i}`.padEnd(400, '.'));
		// A question too large for the server, and its answer, which quotes it.
		await a.send(id, 'z'.repeat(5_000));
		const huge = await a.db.messages.filter((row) => row.content.includes('zzz')).toArray();

		const outcome = await a.sync();

		expect(outcome.pushed).toBe(15);
		expect(outcome.skipped).toEqual(huge.map((row) => ({ id: `msg:${id}:${row.position}`, reason: expect.stringMatching(/too_large: larger than the server takes in one request \(413\)/) })));
		expect(log.some((entry) => entry.status === 413)).toBe(true);
		const b = new Device(db, 'b');
		await b.sync();
		expect(await b.contents(id)).toHaveLength(12);
		// Refused for good: not offered again until edited.
		expect(await a.store.pendingCount()).toBe(0);
		await a.close();
		await b.close();
	});
});
