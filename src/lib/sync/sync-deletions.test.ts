// Deletions can be undone: a session deleted on another device (or on the server) waits in
// "Recently deleted" here, where Restore brings it back on every device with its messages and
// attachments; a pull that would take more than ten sessions asks first; this device's own sweeps
// remove only its own copy; a purge is final, whoever comes back with an old copy; and a clock
// far behind cannot delete anything for good elsewhere. Hooks fire only where the user acted.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { pruneExpiredSessions } from '../sessions/sweep-sessions';
import { updateSession } from '../db/session-verbs';
import { listMessages } from '../db/message-verbs';
import { listRecentlyDeleted, restoreDeletedSession } from '../sessions/restore-deleted';
import { SyncLoop } from './sync-loop';
import type { SyncStatus } from './sync-status';
import { useCouchDatabases } from './test-couch';
import { nextPosition } from './position';
import { seededRandom } from './test-random';

const { newDatabase } = useCouchDatabases('deletions');
const DAY = 24 * 60 * 60 * 1000;

const serverDoc = async (url: string, id: string) => (await (await fetch(`${url}/${encodeURIComponent(id)}`)).json()) as Record<string, unknown> & { fields?: Record<string, unknown>; clocks?: Record<string, string> };

describe('deletions from elsewhere', () => {
	it('an answer that finishes after its session was deleted elsewhere reaches every device once another restores the session', async () => {
		const url = await newDatabase();
		const [laptop, phone, tablet] = [new Device(url, 'laptop'), new Device(url, 'phone'), new Device(url, 'tablet')];
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await quiesce([laptop, phone, tablet]);
		const answer = await laptop.startAnswer(id, 'plans');
		await phone.delete(id);
		await phone.sync();
		await tablet.sync();
		expect(await restoreDeletedSession(tablet.ctx, id)).toBe(true);
		// The laptop hears of the deletion while the answer streams, and moves the session to Recently deleted once it is done.
		await laptop.sync();
		await laptop.finishAnswer(answer);
		await quiesce([laptop, phone, tablet]);
		for (const device of [laptop, phone, tablet]) expect(await device.contents(id)).toEqual(['hello', 'answer to hello', 'plans', 'first words on plans, and the rest']);
		await Promise.all([laptop, phone, tablet].map((device) => device.close()));
	});

	it('a file sent to a session as it was deleted waits with it in Recently deleted, and comes back with a Restore on every device', async () => {
		const url = await newDatabase();
		const [laptop, phone, tablet] = [new Device(url, 'laptop'), new Device(url, 'phone'), new Device(url, 'tablet')];
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await quiesce([laptop, phone, tablet]);
		// The phone deletes the session while the laptop, not yet told, attaches a picture to it.
		await phone.delete(id);
		await laptop.attach(id, 'this picture');
		await phone.sync();
		await laptop.sync();
		// The tablet learns of the deletion and the picture at once; then the laptop restores the session.
		await tablet.sync();
		expect(await tablet.trashIds()).toEqual([id]);
		expect(await restoreDeletedSession(laptop.ctx, id)).toBe(true);
		await quiesce([laptop, phone, tablet]);
		for (const device of [laptop, phone, tablet]) {
			expect(await device.request(id)).toEqual(await laptop.request(id));
			expect((await listMessages(device.db, id)).filter((row) => row.blobs_not_synced)).toEqual([]);
		}
		await Promise.all([laptop, phone, tablet].map((device) => device.close()));
	});

	it('wait in Recently deleted, where Restore brings the session back on every device with its messages and attachments', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'keep me');
		await laptop.attach(id, 'and this picture');
		await quiesce([laptop, phone]);
		const before = await phone.conversation(id);
		await laptop.delete(id);
		await quiesce([laptop, phone]);
		expect(await phone.sessionIds()).toEqual([]);
		expect(await phone.trashIds()).toEqual([id]);
		// Its messages stay on the server, for Restore.
		expect((await serverDoc(url, `session:${id}`)).fields?.deleted_at).not.toBeNull();
		expect(await phone.restore(id)).toBe(true);
		await quiesce([laptop, phone]);
		expect(await laptop.conversation(id)).toEqual(before);
		expect(await laptop.request(id)).toEqual(await phone.request(id));
		// The deletion was announced once, where it was made; nothing fired for the restore.
		expect(laptop.fired.filter((event) => event.name === 'on_session_delete')).toHaveLength(1);
		expect(phone.fired).toEqual([]);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('Recently deleted lists each with its title, when it was deleted, and its messages and files; Restore there brings it back everywhere, once', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.rename(id, 'Trip notes');
		await laptop.send(id, 'pack the tent');
		await laptop.attach(id, 'the map');
		const other = await laptop.newSession();
		await laptop.send(other, 'stays');
		await quiesce([laptop, phone]);
		await laptop.delete(id);
		await quiesce([laptop, phone]);
		const { fields } = await serverDoc(url, `session:${id}`);
		const listed = await listRecentlyDeleted(phone.ctx);
		expect(listed).toEqual([{ id, title: 'Trip notes', deleted_at: fields?.deleted_at, learned_at: expect.any(Number), messages: 3, attachments: 1 }]);
		expect(typeof fields?.deleted_at).toBe('number');
		// The device that deleted it lists nothing: its own deletions are not "from elsewhere".
		expect(await listRecentlyDeleted(laptop.ctx)).toEqual([]);

		expect(await restoreDeletedSession(phone.ctx, id)).toBe(true);
		expect(await restoreDeletedSession(phone.ctx, id)).toBe(false);
		expect(await listRecentlyDeleted(phone.ctx)).toEqual([]);
		await quiesce([laptop, phone]);
		expect(await laptop.sessionIds()).toEqual([id, other].sort());
		expect(await laptop.contents(id)).toEqual(['pack the tent', 'answer to pack the tent', 'the map']);
		expect(await laptop.db.blobs.count()).toBe(1);
		expect(phone.fired).toEqual([]);
		expect(laptop.fired.filter((event) => event.name === 'on_session_delete')).toHaveLength(1);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('Recently deleted keeps a session for the days set, then it leaves the list and cannot be restored', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'short-lived');
		await quiesce([laptop, phone]);
		await laptop.delete(id);
		await quiesce([laptop, phone]);
		Device.clock += 29 * DAY;
		await quiesce([laptop, phone]);
		expect((await listRecentlyDeleted(phone.ctx)).map((session) => session.id)).toEqual([id]);
		Device.clock += 2 * DAY;
		await quiesce([laptop, phone]);
		expect(await listRecentlyDeleted(phone.ctx)).toEqual([]);
		expect(await restoreDeletedSession(phone.ctx, id)).toBe(false);
		await quiesce([laptop, phone]);
		for (const device of [laptop, phone]) expect(await device.sessionIds()).toEqual([]);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('written on the server by whoever can write it, goes to Recently deleted here, and its messages stay', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'mine');
		await quiesce([laptop, phone]);
		const doc = await serverDoc(url, `session:${id}`);
		const clock = nextPosition(Object.values(doc.clocks!).sort().at(-1), laptop.now(), seededRandom(9));
		await fetch(`${url}/${encodeURIComponent(`session:${id}`)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...doc, fields: { ...doc.fields, deleted_at: laptop.now() }, clocks: { ...doc.clocks, deleted_at: clock } }) });
		await quiesce([laptop, phone]);
		expect(await laptop.trashIds()).toEqual([id]);
		const listed = (await (await fetch(`${url}/_all_docs?startkey=${encodeURIComponent(`"msg:${id}:"`)}&endkey=${encodeURIComponent(`"msg:${id}:\ufff0"`)}`)).json()) as { rows: unknown[] };
		expect(listed.rows).toHaveLength(2);
		await laptop.restore(id);
		await quiesce([laptop, phone]);
		expect(await phone.contents(id)).toEqual(['mine', 'answer to mine']);
		expect((await serverDoc(url, `session:${id}`)).fields?.deleted_at).toBeNull();
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('more than ten at once are asked about first; kept, they come back on every device', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) ids.push(await laptop.newSession());
		await quiesce([laptop, phone]);
		for (const id of ids) await phone.delete(id);
		await phone.sync();
		const statuses: SyncStatus[] = [];
		const loop = new SyncLoop({ store: laptop.store, client: laptop.client, onStatus: (status) => statuses.push(status) });
		const stop = new AbortController();
		const running = loop.run(stop.signal);
		await expect.poll(() => statuses.at(-1), { timeout: 15_000 }).toEqual({ state: 'confirm-deletions', count: 12 });
		// Nothing moved while asking.
		expect(await laptop.sessionIds()).toHaveLength(12);
		loop.answerDeletions(false);
		await expect.poll(() => statuses.at(-1)?.state, { timeout: 15_000 }).toBe('up-to-date');
		stop.abort();
		await running;
		await quiesce([laptop, phone]);
		expect(await laptop.sessionIds()).toEqual([...ids].sort());
		expect(await phone.sessionIds()).toEqual([...ids].sort());
		await Promise.all([laptop, phone].map((device) => device.close()));
	});
	it('a deletion of many sessions that reaches the server in parts is asked about whole by a device that woke at its first part', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) ids.push(await laptop.newSession());
		await quiesce([laptop, phone]);
		const statuses: SyncStatus[] = [];
		let settles = 0;
		const loop = new SyncLoop({
			store: phone.store,
			client: phone.client,
			visible: () => true,
			onStatus: (status) => statuses.push(status),
			// While the phone waits for the burst to end, the rest of it reaches the server.
			settle: async () => {
				if (settles++) return;
				for (const id of ids.slice(1)) await laptop.delete(id);
				await laptop.sync();
			}
		});
		const stop = new AbortController();
		const running = loop.run(stop.signal);
		await expect.poll(() => statuses.at(-1)?.state, { timeout: 15_000 }).toBe('up-to-date');
		await laptop.delete(ids[0]);
		await laptop.sync();
		await expect.poll(() => statuses.at(-1), { timeout: 15_000 }).toEqual({ state: 'confirm-deletions', count: 12 });
		expect(await phone.sessionIds()).toHaveLength(12);
		expect(await phone.trashIds()).toEqual([]);
		loop.answerDeletions(true);
		await expect.poll(() => phone.trashIds(), { timeout: 15_000 }).toEqual([...ids].sort());
		stop.abort();
		await running;
		expect(await phone.sessionIds()).toEqual([]);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('an answer holds for the deletions it was asked about: the same sessions deleted again later are asked about again, and Delete them here moves them to Recently deleted', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const ids: string[] = [];
		for (let i = 0; i < 11; i++) ids.push(await laptop.newSession());
		await quiesce([laptop, phone]);
		const statuses: SyncStatus[] = [];
		const loop = new SyncLoop({ store: laptop.store, client: laptop.client, onStatus: (status) => statuses.push(status) });
		const stop = new AbortController();
		const running = loop.run(stop.signal);
		const deleteAllOnPhone = async () => {
			for (const id of ids) await phone.delete(id);
			await phone.sync();
			loop.nudge();
		};
		await deleteAllOnPhone();
		await expect.poll(() => statuses.at(-1), { timeout: 15_000 }).toEqual({ state: 'confirm-deletions', count: 11 });
		loop.answerDeletions(false);
		await expect.poll(() => statuses.at(-1)?.state, { timeout: 15_000 }).toBe('up-to-date');
		await expect.poll(async () => (await phone.sync(), await phone.sessionIds()), { timeout: 15_000 }).toEqual([...ids].sort());

		// Deleted again on the phone: the earlier "Keep them" does not answer this.
		await deleteAllOnPhone();
		await expect.poll(() => statuses.at(-1), { timeout: 15_000 }).toEqual({ state: 'confirm-deletions', count: 11 });
		expect(await laptop.sessionIds()).toHaveLength(11);
		loop.answerDeletions(true);
		await expect.poll(() => statuses.at(-1)?.state, { timeout: 15_000 }).toBe('up-to-date');
		stop.abort();
		await running;
		expect(await laptop.sessionIds()).toEqual([]);
		expect(await laptop.trashIds()).toEqual([...ids].sort());
		await quiesce([laptop, phone]);
		expect(await phone.sessionIds()).toEqual([]);
		expect(laptop.fired.filter((event) => event.name === 'on_session_delete')).toEqual([]);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});
});

describe('automatic sweeps and purges', () => {
	it('a sweep here removes only this device’s copy: the session stays on the other device and on the server', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const id = await laptop.newSession();
		await laptop.send(id, 'old talk');
		await quiesce([laptop, phone]);
		await updateSession(phone.db, id, { ended_at: phone.now() });
		await phone.sync();
		// A hundred days later, the phone's retention (90 days) takes it.
		Device.clock += 100 * DAY;
		const swept = await pruneExpiredSessions(phone.ctx, 90, new Set());
		expect(swept.ids).toEqual([id]);
		await quiesce([laptop, phone]);
		expect(await phone.sessionIds()).toEqual([]);
		expect(await laptop.sessionIds()).toEqual([id]);
		expect((await serverDoc(url, `session:${id}`)).fields?.deleted_at).toBeNull();
		expect(laptop.fired.filter((event) => event.name === 'on_session_delete')).toEqual([]);
		// Written to again elsewhere, it comes back here with every message.
		await laptop.send(id, 'new talk');
		await quiesce([laptop, phone]);
		expect(await phone.contents(id)).toEqual(['old talk', 'answer to old talk', 'new talk', 'answer to new talk']);
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('a sweep of more than ten sessions here sends no deletion: the other device is not asked and keeps every one', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) {
			ids.push(await laptop.newSession());
			await laptop.send(ids[i], `old talk ${i}`);
		}
		await quiesce([laptop, phone]);
		for (const id of ids) await updateSession(phone.db, id, { ended_at: phone.now() });
		await phone.sync();
		Device.clock += 100 * DAY;
		expect((await pruneExpiredSessions(phone.ctx, 90, new Set())).ids.sort()).toEqual([...ids].sort());
		await phone.sync();
		// More than ten deletions would stop this pull to ask (DeletionsToConfirm).
		await expect(laptop.sync()).resolves.toMatchObject({ skipped: [] });
		expect(await laptop.sessionIds()).toEqual([...ids].sort());
		expect(await laptop.trashIds()).toEqual([]);
		for (const id of ids) expect((await serverDoc(url, `session:${id}`)).fields?.deleted_at).toBeNull();
		await Promise.all([laptop, phone].map((device) => device.close()));
	});

	it('a purged session never comes back, even from a device away for longer with an edit to it', async () => {
		const url = await newDatabase();
		const [laptop, phone, away] = [new Device(url, 'laptop'), new Device(url, 'phone'), new Device(url, 'away')];
		const id = await laptop.newSession();
		await laptop.send(id, 'soon gone');
		await quiesce([laptop, phone, away]);
		await laptop.delete(id);
		await quiesce([laptop, phone]);
		Device.clock += 31 * DAY;
		await quiesce([laptop, phone]);
		expect(await phone.trashIds()).toEqual([]);
		expect(await serverDoc(url, `session:${id}`)).toMatchObject({ purged_at: expect.any(Number) });
		// The device that was away all along edits its old copy, then syncs.
		await away.rename(id, 'I am back');
		await away.send(id, 'still here?');
		await quiesce([laptop, phone, away]);
		for (const device of [laptop, phone, away]) expect(await device.sessionIds()).toEqual([]);
		expect(await listMessages(away.db, id)).toEqual([]);
		await Promise.all([laptop, phone, away].map((device) => device.close()));
	});

	it('a deletion from a device whose clock fell a year behind waits in Recently deleted like any other, not deleted for good', async () => {
		const url = await newDatabase();
		const [laptop, behind] = [new Device(url, 'laptop'), new Device(url, 'behind')];
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await quiesce([laptop, behind]);
		behind.skewMs = -365 * DAY;
		await behind.delete(id);
		await quiesce([laptop, behind]);
		expect(await laptop.trashIds()).toEqual([id]);
		Device.clock += 2 * DAY;
		await quiesce([laptop, behind]);
		expect(await laptop.trashIds()).toEqual([id]);
		await Promise.all([laptop, behind].map((device) => device.close()));
	});
});
