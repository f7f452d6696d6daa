// Sync with a passphrase, through a real server: devices that type the same passphrase sync as
// before while the server holds only ciphertext; a device without it (or with a wrong one) reads
// and writes nothing; what the server changes is refused and what it deletes is sent again; a
// passphrase change reaches the other devices; an unencrypted database is encrypted by moving.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { recordingFetch } from '../../../tests/support/recording-fetch';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { exportSessions } from '../sessions/export-sessions';
import { fromBase64, toBase64 } from './base64';
import { pendingBody } from './pending-body';
import { KEEP_PREVIOUS_KEY_MS } from './prepare-sealing';
import { SealedClient } from './sealed-client';
import { sessionToBody, type SessionDoc } from './session-document';
import { SyncLoop } from './sync-loop';
import { keyRecordMissing, needsPassphrase, passphraseChanged, unencryptedDatabase, wrongPassphrase } from './sealing-errors';
import { SyncError } from './sync-error';
import { useCouchDatabases } from './test-couch';

const { newDatabase } = useCouchDatabases('sealed');
const PASSPHRASE = 'correct horse battery staple';
const LATIN1 = new TextDecoder('latin1');

type Doc = Record<string, unknown> & { _id: string; _rev: string };

async function get(url: string, path: string): Promise<Doc> {
	return (await (await fetch(`${url}/${path}`)).json()) as Doc;
}

async function put(url: string, doc: Record<string, unknown>): Promise<void> {
	const response = await fetch(`${url}/${encodeURIComponent(String(doc._id))}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) });
	expect(response.status).toBe(201);
}

/** Every document the server holds, with its attachments' bytes, as text to search. */
async function serverText(url: string): Promise<{ docs: Doc[]; text: string }> {
	const listed = (await (await fetch(`${url}/_all_docs?include_docs=true&attachments=true`)).json()) as { rows: { doc: Doc }[] };
	const docs = listed.rows.map((row) => row.doc);
	const bytes = docs.flatMap((doc) => Object.values((doc._attachments ?? {}) as Record<string, { data: string }>).map((attachment) => LATIN1.decode(fromBase64(attachment.data)!)));
	const changes = await (await fetch(`${url}/_changes?include_docs=true`)).text();
	return { docs, text: [JSON.stringify(docs), changes, ...bytes].join('\n') };
}

async function failure(device: Device): Promise<SyncError> {
	const error = await device.sync().then(
		() => null,
		(caught: unknown) => caught
	);
	expect(error).toBeInstanceOf(SyncError);
	return error as SyncError;
}

/** `sealed.ct` with one byte changed. */
function flipped(doc: Doc): Doc {
	const sealed = doc.sealed as { ct: string };
	const bytes = fromBase64(sealed.ct)!;
	bytes[Math.floor(bytes.length / 2)] ^= 0x01;
	return { ...doc, sealed: { ...sealed, ct: toBase64(bytes) } };
}

describe('a database with a sync passphrase', () => {
	it('syncs devices with the same passphrase, while the server holds no title, message or file bytes', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.rename(id, 'Title sentinel');
		await laptop.send(id, 'Message sentinel');
		await laptop.attach(id, 'A picture');
		await quiesce([laptop, phone]);

		expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		expect(await phone.request(id)).toEqual(await laptop.request(id));
		const { docs, text } = await serverText(url);
		for (const sentinel of ['Title sentinel', 'Message sentinel', 'answer to', 'A picture', 'image/png', 'IHDR']) expect(text).not.toContain(sentinel);
		expect(docs.filter((doc) => doc._id.startsWith('blob:'))).toHaveLength(1);
		for (const doc of docs) if (doc._id !== 'sync-key') expect(Object.keys(doc).filter((key) => key !== '_attachments').sort()).toEqual(['_id', '_rev', 'sealed']);
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('is neither read nor written by a device without it, tells a wrong one apart by its key record alone, and keeps the key once it opened', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const laptop = new Device(url, 'laptop', { passphrase: PASSPHRASE });
		const id = await laptop.newSession();
		await laptop.send(id, 'from the laptop');
		await laptop.sync();
		const before = await serverText(url);
		const log: Parameters<typeof recordingFetch>[0] = [];
		const stranger = new Device(url, 'stranger', { passphrase: null, fetch: recordingFetch(log) });
		const own = await stranger.newSession();
		await stranger.send(own, 'the stranger’s words');
		const requests = () => log.splice(0).map((entry) => `${entry.method} ${entry.path.slice(new URL(url).pathname.length)}`);

		expect((await failure(stranger)).reason).toBe(needsPassphrase().reason);
		expect(requests()).toEqual(['GET /sync-key']);
		stranger.startSync({ passphrase: 'correct horse battery stapler' });
		expect((await failure(stranger)).reason).toBe(wrongPassphrase().reason);
		expect(requests()).toEqual(['GET /sync-key']);
		expect(await stranger.sessionIds()).toEqual([own]);
		expect(await serverText(url)).toEqual(before);

		stranger.startSync({ passphrase: PASSPHRASE });
		await quiesce([laptop, stranger]);
		expect(await stranger.contents(id)).toEqual(['from the laptop', 'answer to from the laptop']);
		expect(await laptop.contents(own)).toEqual(['the stranger’s words', 'answer to the stranger’s words']);
		// A reload: the key was kept, the passphrase was not.
		stranger.startSync({});
		await stranger.send(own, 'after a reload');
		await quiesce([laptop, stranger]);
		expect(await laptop.contents(own)).toHaveLength(4);
		expect(JSON.stringify(await stranger.db.sync_meta.toArray())).not.toContain('horse');
		await Promise.all([laptop.close(), stranger.close()]);
	});

	it('keeps each request within the size a batch may have, though sealing makes bodies larger', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const log: Parameters<typeof recordingFetch>[0] = [];
		const laptop = new Device(url, 'laptop', { passphrase: PASSPHRASE, fetch: recordingFetch(log) });
		const id = await laptop.newSession();
		for (let i = 0; i < 30; i++) await laptop.send(id, `${i} `.padEnd(20_000, 'x'));
		await laptop.sync();
		const writes = log.filter((entry) => entry.path.endsWith('/_bulk_docs'));
		expect(writes.length).toBeGreaterThan(1);
		expect(Math.max(...writes.map((entry) => entry.bytes))).toBeLessThanOrEqual(1024 * 1024);
		await laptop.close();
	});

	it('leaves the key and the passphrase out of the profile’s export', async () => {
		const url = await newDatabase();
		const laptop = new Device(url, 'laptop', { passphrase: PASSPHRASE });
		const id = await laptop.newSession();
		await laptop.send(id, 'exported words');
		await laptop.sync();
		const { current } = (await laptop.keys.read())!;
		const file = await (await exportSessions(laptop.db, { profile: laptop.profile, ids: 'all', kind: 'json' })).blob.text();
		expect(file).toContain('exported words');
		for (const secret of [PASSPHRASE, current.kid, current.salt, 'sync-key', 'keyring']) expect(file).not.toContain(secret);
		await laptop.close();
	});

	it('refuses and counts what the server changed or moved, keeps its own copy, and writes it over at the next edit', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.send(id, 'the real question');
		await quiesce([laptop, phone]);
		const [question, answer] = await phone.db.messages.toArray();
		const [questionId, answerId] = [question, answer].map((row) => `msg:${id}:${row.position}`);
		const shown = await phone.conversation(id);

		// One byte of ciphertext changed; one body moved onto another message; a session written in the clear, deleted.
		await put(url, flipped(await get(url, encodeURIComponent(questionId))));
		await put(url, { ...(await get(url, encodeURIComponent(answerId))), sealed: (await get(url, encodeURIComponent(questionId))).sealed });
		const session = (await phone.db.sync_docs.get(`session:${id}`))!.doc as SessionDoc;
		await put(url, { ...sessionToBody({ ...session, fields: { ...session.fields, deleted_at: Date.UTC(2026, 0, 1) } }), _rev: (await get(url, encodeURIComponent(`session:${id}`)))._rev });
		const outcome = await phone.sync();

		expect(outcome.skipped.map((skip) => [skip.id, skip.reason.replace(/^.*is refused: /, '')]).sort()).toEqual(
			[
				[questionId, 'it fails to authenticate (it was changed on the server, or written without the passphrase).'],
				[answerId, 'it fails to authenticate (it was changed on the server, or written without the passphrase).'],
				[`session:${id}`, 'it is not encrypted with this database’s key.']
			].sort()
		);
		expect(await phone.conversation(id)).toEqual(shown);
		expect(await phone.trashIds()).toEqual([]);

		// The next edit writes this device's copy over the server's.
		await phone.rename(id, 'Renamed');
		await phone.sync();
		expect((await laptop.sync()).skipped.map((skip) => skip.id).sort()).toEqual([questionId, answerId].sort());
		expect(await laptop.db.sessions.get(id)).toMatchObject({ title: 'Renamed' });
		expect(await laptop.trashIds()).toEqual([]);
		expect(await laptop.conversation(id)).toEqual(await phone.conversation(id));
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('leaves out a file whose sealed bytes the server changed, and says so in its message', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.attach(id, 'a picture');
		await laptop.sync();
		const blob = (await serverText(url)).docs.find((doc) => doc._id.startsWith('blob:'))!;
		const path = `${url}/${encodeURIComponent(blob._id)}/data`;
		const bytes = new Uint8Array(await (await fetch(`${path}?rev=${blob._rev}`)).arrayBuffer());
		bytes[bytes.length - 5] ^= 0x01;
		expect((await fetch(`${path}?rev=${blob._rev}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes })).status).toBe(201);

		await phone.sync();
		const [row] = await phone.db.messages.toArray();
		expect(row.blobs_not_synced).toEqual([expect.objectContaining({ id: row.attachments![0].id })]);
		expect(await phone.db.blobs.count()).toBe(0);
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('sends again a document the server deleted, and its key record', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.send(id, 'kept');
		await quiesce([laptop, phone]);
		const [row] = await phone.db.messages.toArray();
		const messageId = encodeURIComponent(`msg:${id}:${row.position}`);
		for (const path of [messageId, encodeURIComponent(`session:${id}`), 'sync-key']) {
			const doc = await get(url, path);
			expect((await fetch(`${url}/${path}?rev=${doc._rev}`, { method: 'DELETE' })).status).toBe(200);
		}

		await quiesce([laptop, phone]);
		for (const path of [messageId, encodeURIComponent(`session:${id}`), 'sync-key']) expect((await fetch(`${url}/${path}`)).status).toBe(200);
		const fresh = new Device(url, 'tablet', { passphrase: PASSPHRASE });
		await fresh.sync();
		expect(await fresh.contents(id)).toEqual(['kept', 'answer to kept']);
		await Promise.all([laptop.close(), phone.close(), fresh.close()]);
	});

	it('changed on one device, is sealed again everywhere and asked for on the others', { timeout: 90_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.send(id, 'before the change');
		await laptop.attach(id, 'a picture');
		await quiesce([laptop, phone]);
		const oldKey = ((await get(url, 'sync-key')) as unknown as { kid: string }).kid;

		laptop.startSync({ change: 'a brand new passphrase' });
		await laptop.sync();
		const newKey = ((await get(url, 'sync-key')) as unknown as { kid: string }).kid;
		expect(newKey).not.toBe(oldKey);
		const { docs } = await serverText(url);
		expect(docs.filter((doc) => doc._id !== 'sync-key').map((doc) => (doc.sealed as { kid: string }).kid)).toEqual(docs.slice(1).map(() => newKey));
		await laptop.send(id, 'after the change');
		await laptop.sync();

		expect((await failure(phone)).reason).toBe(passphraseChanged().reason);
		expect(await phone.contents(id)).toHaveLength(3);
		phone.startSync({ passphrase: PASSPHRASE });
		expect((await failure(phone)).reason).toBe(wrongPassphrase().reason);
		phone.startSync({ passphrase: 'a brand new passphrase' });
		await quiesce([laptop, phone]);
		expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		expect(await phone.request(id)).toEqual(await laptop.request(id));
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('after a change, takes what a device wrote with the old key before it heard, seals it again, and refuses the old key once its time is up', { timeout: 90_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.send(id, 'before the change');
		await quiesce([laptop, phone]);
		const oldKeys = (await phone.keys.read())!;

		laptop.startSync({ change: 'a brand new passphrase' });
		await laptop.sync();
		// The phone checked the key record just before the change: it sends with the old key, then hears of it.
		await phone.send(id, 'written late');
		const late = new SealedClient({ url, now: () => phone.now() });
		late.keyring = oldKeys;
		expect(await new SyncLoop({ store: phone.store, client: late }).syncOnce().catch((error: SyncError) => error.reason)).toBe(passphraseChanged().reason);
		const newKey = ((await get(url, 'sync-key')) as unknown as { kid: string }).kid;
		const kids = async () => new Set((await serverText(url)).docs.filter((doc) => doc._id !== 'sync-key').map((doc) => (doc.sealed as { kid: string }).kid));
		expect((await kids()).size).toBe(2);

		await laptop.sync();
		expect(await kids()).toEqual(new Set([newKey]));
		expect(await laptop.contents(id)).toContain('written late');
		phone.startSync({ passphrase: 'a brand new passphrase' });
		await quiesce([laptop, phone]);
		expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));

		// Past the time the old key is kept: one written with it now is refused, on both devices.
		Device.clock += KEEP_PREVIOUS_KEY_MS + 60_000;
		await quiesce([laptop, phone]);
		expect((await laptop.keys.read())!.previous).toBeUndefined();
		await phone.send(id, 'forged with the old key');
		const forger = new SealedClient({ url, now: () => phone.now() });
		forger.keyring = oldKeys;
		const [row] = (await phone.db.messages.toArray()).filter((message) => message.content === 'forged with the old key');
		await phone.store.pendingCount();
		const body = (await phone.store.pending(1 << 20)).docs.find((entry) => entry.id === `msg:${id}:${row.position}`)!;
		await forger.bulkDocs([pendingBody(body as Exclude<typeof body, { kind: 'blob' }>)]);
		expect((await laptop.sync()).skipped.map((skip) => skip.id)).toEqual([`msg:${id}:${row.position}`]);
		expect(await laptop.contents(id)).not.toContain('forged with the old key');
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('is not set on a database that holds unencrypted sessions: the app says to move, and a new database gets them all encrypted', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const laptop = new Device(url, 'laptop', { passphrase: null });
		const id = await laptop.newSession();
		await laptop.send(id, 'in the clear');
		await laptop.sync();
		laptop.startSync({ passphrase: PASSPHRASE });
		expect((await failure(laptop)).reason).toBe(unencryptedDatabase().reason);
		expect((await fetch(`${url}/sync-key`)).status).toBe(404);

		// A new database (its server's design document, which says nothing of sessions, aside).
		const moved = await newDatabase();
		await put(moved, { _id: '_design/auth', validate_doc_update: 'function () {}' });
		laptop.useDatabase(moved, PASSPHRASE);
		await laptop.sync();
		expect((await serverText(moved)).text).not.toContain('in the clear');
		const phone = new Device(moved, 'phone', { passphrase: PASSPHRASE });
		await phone.sync();
		expect(await phone.contents(id)).toEqual(['in the clear', 'answer to in the clear']);
		// A device that never had the key cannot open a database whose key record was lost.
		const doc = await get(moved, 'sync-key');
		await fetch(`${moved}/sync-key?rev=${doc._rev}`, { method: 'DELETE' });
		const tablet = new Device(moved, 'tablet', { passphrase: PASSPHRASE });
		expect((await failure(tablet)).reason).toBe(keyRecordMissing().reason);
		await Promise.all([laptop.close(), phone.close(), tablet.close()]);
	});

	it('recreated empty on the server, gets its key record and every session again from a device that holds the key', { timeout: 60_000 }, async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', { passphrase: PASSPHRASE }), new Device(url, 'phone', { passphrase: PASSPHRASE })];
		const id = await laptop.newSession();
		await laptop.send(id, 'before');
		await quiesce([laptop, phone]);
		await fetch(url, { method: 'DELETE' });
		await fetch(url, { method: 'PUT' });
		await phone.send(id, 'after');
		await quiesce([laptop, phone]);
		expect(await laptop.contents(id)).toEqual(['before', 'answer to before', 'after', 'answer to after']);
		expect((await serverText(url)).text).not.toContain('before');
		await Promise.all([laptop.close(), phone.close()]);
	});
});
