// The worker's side of sync against the test server: a run reports its statuses, a local write
// starts a pass soon after, the page's network state reaches the loop, and stop ends the run.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCouchServer } from '../../../tests/support/couch-server.mjs';
import { Device } from '../../../tests/support/sync-device';
import { createSyncWorkerApi, type LocalStore } from './sync-runner';
import type { SyncStatus } from './sync-status';
import { createKeyStore } from './dexie-key-store';
import { needsPassphrase } from './sealing-errors';

let server: Awaited<ReturnType<typeof startCouchServer>>;
beforeAll(async () => {
	server = await startCouchServer();
});
afterAll(async () => {
	await server?.close();
});

async function newDatabase(): Promise<string> {
	const url = `${server.url}/runner-${crypto.randomUUID()}`;
	expect((await fetch(url, { method: 'PUT' })).status).toBe(201);
	return url;
}

describe('the sync worker api', () => {
	it('runs the loop with the page’s network state, sends a local write soon after it, and stops', async () => {
		const url = await newDatabase();
		const here = new Device(url, 'here');
		const there = new Device(url, 'there');
		let written: (() => void) | null = null;
		let closed = false;
		const local: LocalStore = {
			store: here.store,
			watch: (onChange) => {
				written = onChange;
				return () => (written = null);
			},
			close: () => (closed = true)
		};
		const api = createSyncWorkerApi(() => local);
		const statuses: SyncStatus[] = [];
		const run = api.run({ profile: 'default', url, credentials: null, online: true, visible: true }, (status) => statuses.push(status));
		await vi.waitFor(() => expect(statuses.at(-1)?.state).toBe('up-to-date'));

		// Long-polling while visible: a local write ends the wait and is sent.
		const id = await here.newSession();
		await here.rename(id, 'Written here');
		written!();
		await vi.waitFor(async () => {
			await there.sync();
			expect((await there.db.sessions.get(id))?.title).toBe('Written here');
		});

		api.setOnline(false);
		await vi.waitFor(() => expect(statuses.at(-1)).toEqual({ state: 'offline' }));
		api.stop();
		await run;
		expect(closed).toBe(true);
		expect(written).toBeNull();
		await here.close();
		await there.close();
	});

	it('encrypts with the passphrase of the run, keeps the key, and ends a run on a device without it with what to do', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const [here, there] = [new Device(url, 'here'), new Device(url, 'there')];
		const id = await here.newSession();
		await here.send(id, 'sealed words');
		const keys = createKeyStore(here.db);
		const api = createSyncWorkerApi(() => ({ store: here.store, keys, watch: () => () => {}, close: () => {} }));
		const statuses: SyncStatus[] = [];
		const request = { profile: 'default', url, credentials: null, online: true, visible: false };
		const run = api.run({ ...request, passphrase: 'correct horse' }, (status) => statuses.push(status));
		await vi.waitFor(() => expect(statuses.at(-1)).toMatchObject({ state: 'up-to-date', sealed: true }), { timeout: 20_000 });
		api.stop();
		await run;
		expect(await (await fetch(`${url}/_all_docs?include_docs=true`)).text()).not.toContain('sealed words');
		// Started again with no passphrase typed: the key kept here does.
		statuses.length = 0;
		const again = api.run(request, (status) => statuses.push(status));
		await vi.waitFor(() => expect(statuses.at(-1)).toMatchObject({ state: 'up-to-date', sealed: true }), { timeout: 20_000 });
		api.stop();
		await again;

		const elsewhere = createSyncWorkerApi(() => ({ store: there.store, watch: () => () => {}, close: () => {} }));
		const told: SyncStatus[] = [];
		await elsewhere.run(request, (status) => told.push(status));
		expect(told).toEqual([{ state: 'error', reason: needsPassphrase().reason, retryAt: null, kind: 'passphrase' }]);
		expect(await there.sessionIds()).toEqual([]);
		await here.close();
		await there.close();
	});

	it('a store that cannot open ends the run with a status that says what to do', async () => {
		const api = createSyncWorkerApi(() => {
			throw new Error('The database is closed.');
		});
		const statuses: SyncStatus[] = [];
		await api.run({ profile: 'default', url: 'http://127.0.0.1:9/db', credentials: null, online: true, visible: false }, (status) => statuses.push(status));
		expect(statuses).toEqual([
			{ state: 'error', reason: 'Sync could not run in this browser (The database is closed). Stop sync, reload the page and start it again.', retryAt: null }
		]);
	});

	it('a run asked to create the database creates it and syncs; one the server will not create says why and stops', async () => {
		const url = `${server.url}/runner-new-${crypto.randomUUID()}`;
		const here = new Device(url, 'here');
		const id = await here.newSession();
		const local: LocalStore = { store: here.store, watch: () => () => {}, close: () => {} };
		const api = createSyncWorkerApi(() => local);
		const statuses: SyncStatus[] = [];
		const run = api.run({ profile: 'default', url, credentials: null, online: true, visible: false, create: true }, (status) => statuses.push(status));
		await vi.waitFor(() => expect(statuses.at(-1)?.state).toBe('up-to-date'));
		const listed = (await (await fetch(`${url}/_all_docs`)).json()) as { rows: { id: string }[] };
		expect(listed.rows.map((row) => row.id)).toContain(`session:${id}`);
		api.stop();
		await run;

		// As CouchDB answers a user who may not create databases.
		const refusing = createSyncWorkerApi(() => local, async () => new Response(JSON.stringify({ error: 'forbidden', reason: 'You are not a server admin.' }), { status: 403 }));
		const refused: SyncStatus[] = [];
		await refusing.run({ profile: 'default', url: `${url}-other`, credentials: null, online: true, visible: false, create: true }, (status) => refused.push(status));
		expect(refused).toEqual([
			{ state: 'error', reason: 'The sync server does not let this user create databases (403): ask its administrator to create it, or use the address of a database that exists.', retryAt: null, kind: 'forbidden' }
		]);
		await here.close();
	});
});
