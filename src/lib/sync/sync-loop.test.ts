// Two devices syncing through one database of a real CouchDB-compatible server (pouchdb-server):
// sessions and messages arrive in order, concurrent edits merge, a deletion wins, and requests
// stay within their byte bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import { Device, recordingFetch } from '../../../tests/support/sync-device';
import { pushPending } from './push-pending';
import type { SyncStatus } from './sync-status';

let server: Awaited<ReturnType<typeof startCouchServer>>;
let databases = 0;

beforeAll(async () => {
	server = await startCouchServer();
});

afterAll(async () => {
	await server?.close();
});

/** A fresh database on the server: each test is a user of its own. */
async function newDatabase(): Promise<string> {
	const url = `${server.url}/userdb-${++databases}`;
	expect((await fetch(url, { method: 'PUT' })).status).toBe(201);
	return url;
}

async function serverDoc(db: string, id: string): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(`${db}/${encodeURIComponent(id)}`);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('two devices syncing through one server', () => {
	it('a session made on one device appears on the other with its messages in order', async () => {
		const db = await newDatabase();
		const [a, b] = [new Device(db, 1), new Device(db, 2)];
		a.createSession('s1', 'Trip to Lisbon');
		for (const text of ['Where to stay?', 'Alfama is central.', 'And to eat?', 'Try the bifana.']) a.append('s1', text);

		expect(await a.sync()).toMatchObject({ pushed: 5, skipped: [] });
		expect(await b.sync()).toMatchObject({ pulled: 5, skipped: [] });

		expect(b.store.session('s1')?.fields.title).toBe('Trip to Lisbon');
		expect(b.contents('s1')).toEqual(['Where to stay?', 'Alfama is central.', 'And to eat?', 'Try the bifana.']);
		expect(await b.store.pendingCount()).toBe(0);
		expect(await a.sync()).toMatchObject({ pushed: 0, skipped: [] });
	});

	it('messages appended on both devices while offline end in the same order on both', async () => {
		const db = await newDatabase();
		const [a, b] = [new Device(db, 3), new Device(db, 4)];
		a.createSession('s1', 'Plans');
		a.append('s1', 'first');
		await a.sync();
		await b.sync();
		// Offline on both: B's clock runs behind A's, so only the positions can order them alike.
		b.now -= 60_000;
		a.append('s1', 'a1');
		a.append('s1', 'a2');
		b.append('s1', 'b1');
		b.append('s1', 'b2');

		await a.sync();
		await b.sync();
		await a.sync();

		expect(a.contents('s1')).toHaveLength(5);
		expect(b.contents('s1')).toEqual(a.contents('s1'));
		expect(a.contents('s1')[0]).toBe('first');
		// Each device's own messages keep their order.
		const order = a.contents('s1');
		expect(order.indexOf('a1')).toBeLessThan(order.indexOf('a2'));
		expect(order.indexOf('b1')).toBeLessThan(order.indexOf('b2'));
	});

	it('a rename on one device and an archive on the other both survive, on both', async () => {
		const db = await newDatabase();
		const [a, b] = [new Device(db, 5), new Device(db, 6)];
		a.createSession('s1', 'Draft');
		await a.sync();
		await b.sync();
		a.rename('s1', 'Budget 2026');
		b.archive('s1');

		await a.sync();
		await b.sync();
		await a.sync();

		for (const device of [a, b]) {
			expect(device.store.session('s1')?.fields).toMatchObject({ title: 'Budget 2026', archived: 1 });
			expect(await device.store.pendingCount()).toBe(0);
		}
		expect((await serverDoc(db, 'session:s1')).body.fields).toMatchObject({ title: 'Budget 2026', archived: 1 });
	});

	it('a deletion on one device wins over an append on the other: the late message is dropped and nothing comes back', async () => {
		const db = await newDatabase();
		const [a, b] = [new Device(db, 7), new Device(db, 8)];
		a.createSession('s1', 'Secret plans');
		a.append('s1', 'one');
		a.append('s1', 'two');
		await a.sync();
		await b.sync();
		a.deleteSession('s1');
		b.append('s1', 'late');
		b.rename('s1', 'Renamed after the deletion');

		await a.sync();
		// B sends its append before it learns of the deletion; A receives the late message.
		await pushPending({ store: b.store, client: b.client });
		await a.sync();
		expect(a.contents('s1')).toEqual([]);
		await b.sync();
		await a.sync();

		for (const device of [a, b]) {
			expect(device.store.session('s1')?.deleted_at).not.toBeNull();
			expect(device.contents('s1')).toEqual([]);
			expect(await device.store.pendingCount()).toBe(0);
		}
		// The session's document stays, never CouchDB-deleted; none of its messages is left alive.
		const session = await serverDoc(db, 'session:s1');
		expect(session.status).toBe(200);
		expect(session.body._deleted).toBeUndefined();
		expect(session.body.deleted_at).toEqual(expect.any(Number));
		const all = (await (await fetch(`${db}/_all_docs`)).json()) as { rows: { id: string }[] };
		expect(all.rows.map((row) => row.id)).toEqual(['session:s1']);
	});

	it('a write over a stale revision is refused, merged with the server’s copy and sent again', async () => {
		const db = await newDatabase();
		const log: Parameters<typeof recordingFetch>[0] = [];
		const [a, b] = [new Device(db, 9), new Device(db, 10, { client: { fetch: recordingFetch(log) } })];
		a.createSession('s1', 'Draft');
		await a.sync();
		await b.sync();
		a.rename('s1', 'Final');
		await a.sync();
		b.archive('s1');
		log.length = 0;

		// Only a push: B has not seen A's revision.
		const outcome = await pushPending({ store: b.store, client: b.client });

		expect(outcome).toEqual({ pushed: 1, skipped: [] });
		expect(log.map(({ method, path }) => `${method} ${path.replace(/^\/[^/]+/, '')}`)).toEqual([
			'POST /_bulk_docs',
			'POST /_all_docs?include_docs=true',
			'POST /_bulk_docs'
		]);
		expect((await serverDoc(db, 'session:s1')).body).toMatchObject({ _rev: expect.stringMatching(/^3-/), fields: { title: 'Final', archived: 1 } });
		// B already holds the merge: nothing is left to send, and A's title is there.
		expect(b.store.session('s1')?.fields).toMatchObject({ title: 'Final', archived: 1 });
		expect(await b.store.pendingCount()).toBe(0);
	});

	it('sends in requests within the byte bound, reporting its progress', async () => {
		const db = await newDatabase();
		const log: Parameters<typeof recordingFetch>[0] = [];
		const statuses: SyncStatus[] = [];
		const a = new Device(db, 11, { client: { fetch: recordingFetch(log) }, loop: { batchBytes: 8 * 1024, onStatus: (status) => statuses.push(status) } });
		const b = new Device(db, 12);
		a.createSession('s1', 'Long one');
		for (let i = 0; i < 60; i++) a.append('s1', `message ${i} `.padEnd(500, 'x'));

		await a.sync();

		const writes = log.filter((entry) => entry.path.endsWith('/_bulk_docs'));
		expect(writes.length).toBeGreaterThanOrEqual(4);
		for (const write of writes) expect(write.bytes).toBeLessThanOrEqual(8 * 1024);
		const sending = statuses.filter((status) => status.state === 'sending');
		expect(sending[0]).toEqual({ state: 'sending', done: 0, total: 61 });
		expect(sending.at(-1)).toEqual({ state: 'sending', done: 61, total: 61 });
		expect(sending.map((status) => status.done)).toEqual([...sending.map((status) => status.done)].sort((x, y) => x - y));

		await b.sync();
		expect(b.contents('s1')).toHaveLength(60);
		expect(b.contents('s1')[59]).toMatch(/^message 59 /);
	});

	it('a running loop receives the other device’s message through the long-poll, and reports up to date', async () => {
		const db = await newDatabase();
		const statuses: SyncStatus[] = [];
		const a = new Device(db, 13);
		const b = new Device(db, 14, { loop: { visible: () => true, longPollMs: 10_000, onStatus: (status) => statuses.push(status) } });
		a.createSession('s1', 'Live');
		await a.sync();
		const stop = new AbortController();
		const running = b.loop.run(stop.signal);
		await expect.poll(() => b.store.session('s1')?.fields.title).toBe('Live');

		a.append('s1', 'arrives while B waits');
		await a.sync();
		await expect.poll(() => b.contents('s1'), { timeout: 5_000 }).toEqual(['arrives while B waits']);
		await expect.poll(() => statuses.at(-1)?.state).toBe('up-to-date');

		stop.abort();
		await running;
	});
});
