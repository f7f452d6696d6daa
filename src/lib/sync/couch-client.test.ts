// The client against a real CouchDB-compatible server: a hostile document is skipped and counted
// (never applied), the login cookie is renewed only while the caller holds credentials, and a
// request the server finds too large is split until each document goes alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import { Device, recordingFetch } from '../../../tests/support/sync-device';
import { CouchClient, type Credentials } from './couch-client';
import { pushPending } from './push-pending';
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

describe('documents from the server', () => {
	it('skips and counts a document of wrong types, of unknown fields or too large, and applies the rest', async () => {
		const db = await newDatabase();
		const a = new Device(db, 1);
		a.createSession('s1', 'Good');
		const message = a.append('s1', 'kept');
		await a.sync();
		const good = (await (await fetch(`${db}/${encodeURIComponent('session:s1')}`)).json()) as Record<string, unknown>;
		const position = message.position.replace(/.$/, (c) => (c === 'Z' ? 'Y' : 'Z'));
		await put(db, { ...good, _id: 'session:s2', _rev: undefined, fields: { ...(good.fields as object), title: 42 } });
		await put(db, { ...good, _id: 'session:s3', _rev: undefined, script: 'alert(1)' });
		await put(db, { _id: `msg:s1:${position}`, format: 1, ...message.message, id: 'm-huge', content: 'x'.repeat(100_000) });
		const b = new Device(db, 2, { client: { maxDocumentBytes: 64 * 1024 } });

		const outcome = await b.sync();

		expect(outcome.pulled).toBe(2);
		expect(outcome.skipped.map((skip) => skip.reason)).toEqual([
			expect.stringMatching(/^Document "session:s2" is refused: its “fields.title” is 42, expected/),
			'Document "session:s3" is refused: it has “script”, a field this app does not know.',
			`Document "msg:s1:${position}" is refused: it is larger than 64 KB.`
		]);
		expect(b.store.sessionIds()).toEqual(['s1']);
		expect(b.contents('s1')).toEqual(['kept']);
		// Skipped for good: the checkpoint moved past them.
		expect(await b.sync()).toEqual({ pushed: 0, pulled: 0, skipped: [] });
	});

	it('steps past a change too large to read in one answer, one change at a time', async () => {
		const db = await newDatabase();
		const a = new Device(db, 3);
		a.createSession('s1', 'Before');
		const first = a.append('s1', 'first');
		await a.sync();
		await put(db, { _id: `msg:s1:${first.position.slice(0, -1)}Z`, format: 1, ...first.message, id: 'm-huge', content: 'y'.repeat(300_000) });
		a.append('s1', 'after');
		await a.sync();
		const b = new Device(db, 4, { client: { maxResponseBytes: 200 * 1024 } });

		const outcome = await b.sync();

		expect(outcome.skipped).toEqual([{ id: `msg:s1:${first.position.slice(0, -1)}Z`, reason: expect.stringMatching(/is refused: The sync server sent more than 200 KB in one answer/) }]);
		expect(b.contents('s1')).toEqual(['first', 'after']);
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
			'GET /_changes?since=0&limit=10&include_docs=true 401',
			'POST /_session 200',
			'GET /_changes?since=0&limit=10&include_docs=true 200'
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
		const a = new Device(db, 5, { client: { fetch: recordingFetch(log, small) } });
		a.createSession('s1', 'Split');
		for (let i = 0; i < 12; i++) a.append('s1', `note ${i}`.padEnd(400, '.'));
		const huge = a.append('s1', 'z'.repeat(5_000));

		const outcome = await pushPending({ store: a.store, client: a.client });

		expect(outcome.pushed).toBe(14);
		expect(outcome.skipped).toEqual([{ id: `msg:s1:${huge.position}`, reason: expect.stringMatching(/too_large: larger than the server takes in one request \(413\)/) }]);
		expect(log.some((entry) => entry.status === 413)).toBe(true);
		const b = new Device(db, 6);
		await b.sync();
		expect(b.contents('s1')).toHaveLength(12);
		// Refused for good: not offered again until edited.
		expect(await a.store.pendingCount()).toBe(0);
	});
});
