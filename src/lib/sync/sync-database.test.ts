// What sync knows belongs to one database: another database (the Sync server changed) or the same
// one recreated gets everything again, and is read from the start. Conflicting revisions, as
// replication between servers leaves them, are merged on every device and the losing branches
// removed. A database that does not exist yet can be created.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { CouchClient } from './couch-client';
import { useCouchDatabases } from './test-couch';

const { newDatabase } = useCouchDatabases('database');

describe('the database sync belongs to', () => {
	it('a new database gets every session synced before, and a new device there gets them all', async () => {
		const first = await newDatabase();
		const [laptop, phone] = [new Device(first, 'laptop'), new Device(first, 'phone')];
		const ids = [await laptop.newSession(), await phone.newSession()];
		await laptop.send(ids[0], 'on the laptop');
		await phone.send(ids[1], 'on the phone');
		await quiesce([laptop, phone]);
		const second = await newDatabase();
		laptop.useDatabase(second);
		await laptop.sync();
		const tablet = new Device(second, 'tablet');
		await tablet.sync();
		expect(await tablet.sessionIds()).toEqual([...ids].sort());
		for (const id of ids) expect(await tablet.conversation(id)).toEqual(await laptop.conversation(id));
		await Promise.all([laptop, phone, tablet].map((device) => device.close()));
	});

	it('the same database recreated empty gets everything again from each device, and each reads it from the start', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'before');
		await quiesce([laptop, phone]);
		await fetch(url, { method: 'DELETE' });
		await fetch(url, { method: 'PUT' });
		await phone.send(id, 'after');
		await quiesce([laptop, phone]);
		expect(await laptop.contents(id)).toEqual(['before', 'answer to before', 'after', 'answer to after']);
		const listed = (await (await fetch(`${url}/_all_docs`)).json()) as { rows: unknown[] };
		expect(listed.rows).toHaveLength(5);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('merges revisions that conflict on the server into one on every device, and removes the losing branches', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await quiesce([laptop, phone]);
		// Another server replicated in an edit of its own: a second branch, its rename the later edit.
		await laptop.rename(id, 'Mine');
		await laptop.sync();
		const winner = (await (await fetch(`${url}/${encodeURIComponent(`session:${id}`)}`)).json()) as Record<string, unknown> & { fields: Record<string, unknown>; clocks: Record<string, string> };
		const later = (await laptop.db.sync_docs.get(`session:${id}`))!.doc as { clocks: Record<string, string> };
		const branch = { ...winner, _rev: `${String(winner._rev).split('-')[0]}-00000000000000000000000000000001`, fields: { ...winner.fields, pinned: 1 }, clocks: { ...winner.clocks, pinned: later.clocks.title.replace(/.$/, 'Z') } };
		const written = await fetch(`${url}/_bulk_docs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ docs: [branch], new_edits: false }) });
		expect(written.status).toBe(201);
		await quiesce([laptop, phone]);
		for (const device of [laptop, phone]) expect(await device.db.sessions.get(id)).toMatchObject({ title: 'Mine', pinned: 1 });
		const after = (await (await fetch(`${url}/${encodeURIComponent(`session:${id}`)}?conflicts=true`)).json()) as Record<string, unknown>;
		expect(after._conflicts).toBeUndefined();
		expect(after).toMatchObject({ fields: { title: 'Mine', pinned: 1 } });
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('sends in its first pass the rows a profile held before sync kept its changes, and keeps none of them queued after', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'from before sync');
		await laptop.send(id, 'from before sync too');
		// As a profile from before sync kept an outbox: rows, and nothing queued for them.
		await laptop.db.sync_outbox.clear();
		const sent = await laptop.sync();
		expect(sent.pushed).toBe(5);
		expect(await laptop.db.sync_outbox.count()).toBe(0);
		expect(await laptop.store.pendingCount()).toBe(0);
		await phone.sync();
		expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('creates a database that does not exist yet, where the server allows it', async () => {
		const url = `${await newDatabase()}-new`;
		const client = new CouchClient({ url });
		await expect(client.readLocal('x')).resolves.toBeNull();
		await client.createDatabase();
		expect((await fetch(url)).status).toBe(200);
		// Created already: still fine.
		await client.createDatabase();
	});

	it('says plainly why a server would not create the database: a login it asks for, or a user who may not create databases', async () => {
		// As CouchDB answers: a login that works, then a PUT of a database by a user who is not a server admin.
		const server = (status: number) => async (input: RequestInfo | URL) =>
			String(input).endsWith('/_session') ? new Response(JSON.stringify({ ok: true }), { status: 200 }) : new Response(JSON.stringify({ error: 'unauthorized', reason: 'You are not a server admin.' }), { status });
		const url = 'http://127.0.0.1:9/userdb-new';
		const ada = () => ({ name: 'ada', password: 'pw' });
		await expect(new CouchClient({ url, fetch: server(401) }).createDatabase()).rejects.toMatchObject({ kind: 'login', message: expect.stringContaining('asks for a login to create a database (401)') });
		await expect(new CouchClient({ url, fetch: server(401), credentials: ada }).createDatabase()).rejects.toMatchObject({ kind: 'forbidden', message: expect.stringContaining('does not let this user create databases (401)') });
		await expect(new CouchClient({ url, fetch: server(403), credentials: ada }).createDatabase()).rejects.toMatchObject({ kind: 'forbidden', message: expect.stringContaining('does not let this user create databases (403)') });
	});
});
