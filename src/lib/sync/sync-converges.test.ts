// Devices, each a profile database with the app's own verbs, syncing through one database of a
// real CouchDB-compatible server: whatever happened on one, every device ends up showing the same
// conversation and sending the model the same request.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce, TINY_PNG } from '../../../tests/support/sync-device';
import { useCouchDatabases } from './test-couch';
import { positionsAfter } from '../db/position-clock';
import { listMessages } from '../db/message-verbs';
import { writeSettings } from '../db/settings-verbs';

const { newDatabase } = useCouchDatabases('converge');

async function devices(count: number): Promise<{ url: string; all: Device[] }> {
	const url = await newDatabase();
	return { url, all: Array.from({ length: count }, (_, i) => new Device(url, `d${i}`, { seed: i + 1 })) };
}

async function expectSame(a: Device, b: Device, sessionId: string): Promise<void> {
	expect(await b.conversation(sessionId)).toEqual(await a.conversation(sessionId));
	expect(await b.request(sessionId)).toEqual(await a.request(sessionId));
}

describe('the same conversation on every device', () => {
	it('an answer that pauses mid-stream reaches the other device once it ends, and a rename made there meanwhile holds', async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await quiesce(all);
		const answer = await laptop.startAnswer(id, 'think hard');
		// The model pauses: the laptop syncs meanwhile, and the phone renames and pins the session.
		await laptop.sync();
		await phone.sync();
		await phone.rename(id, 'Renamed on the phone');
		await phone.pin(id, true);
		await phone.sync();
		await laptop.sync();
		laptop.streaming.delete(id);
		await laptop.finishAnswer(answer);
		await quiesce(all);
		expect((await phone.contents(id)).at(-1)).toBe('first words on think hard, and the rest');
		expect(await laptop.db.sessions.get(id)).toMatchObject({ title: 'Renamed on the phone', pinned: 1 });
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});

	it("a chat's settings changed on one device reach the other, with a rename made there meanwhile, and so does going back to the defaults", async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await quiesce(all);
		await laptop.setChatSettings(id, { system_prompt: 'Answer as a pirate.', temperature: 0.3, compaction: 'off', tool_servers_off: ['https://tools.example/mcp'] });
		await phone.rename(id, 'Pirate talk');
		await quiesce(all);
		for (const device of all) expect(await device.db.sessions.get(id)).toMatchObject({ title: 'Pirate talk', chat_settings: { system_prompt: 'Answer as a pirate.', temperature: 0.3, compaction: 'off', tool_servers_off: ['https://tools.example/mcp'] } });
		await expectSame(laptop, phone, id);
		await phone.setChatSettings(id, {});
		await quiesce(all);
		expect(await laptop.db.sessions.get(id)).not.toHaveProperty('chat_settings');
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});

	it('after a compaction the other device sends the summary before the kept tail, and a pruned result right after its call', async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.sendWithTool(id, 'look it up');
		await laptop.prune(id);
		await laptop.send(id, 'one');
		await laptop.send(id, 'two');
		await laptop.compact(id);
		await laptop.send(id, 'after');
		await quiesce(all);
		const request = (await phone.request(id)) as Array<{ role: string; content: string }>;
		expect(request.map((message) => message.content)).toEqual(['summary of 6 messages', 'two', 'answer to two', 'after', 'answer to after']);
		await laptop.undo(id);
		await quiesce(all);
		const undone = (await phone.request(id)) as Array<{ role: string; content: string; tool_call_id?: string }>;
		// The pruned stub sits right after the call it answers, before the later turns.
		const call = undone.findIndex((message) => message.role === 'assistant' && !message.content);
		expect(undone[call + 1]).toMatchObject({ role: 'tool', content: expect.stringMatching(/^\[pruned/) });
		expect(undone.map((message) => message.content).slice(-3)).toEqual(['answer to two', 'after', 'answer to after']);
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});

	it('after an edit the other device sends only the version on show, and follows a switch back, an undone compaction and an edited summary', async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.send(id, 'first');
		await laptop.send(id, 'second');
		await laptop.edit(id);
		await quiesce(all);
		const contents = (request: unknown) => (request as Array<{ content: string }>).map((message) => message.content);
		expect(contents(await phone.request(id))).toEqual(['first', 'answer to first', 'second (edited)', 'answer to second (edited)']);
		await phone.switchVersion(id);
		await quiesce(all);
		expect(contents(await laptop.request(id))).toEqual(['first', 'answer to first', 'second', 'answer to second']);
		await laptop.send(id, 'third');
		await laptop.compact(id);
		await laptop.editSummary(id);
		await quiesce(all);
		expect(contents(await phone.request(id))[0]).toBe('summary of 4 messages (edited)');
		await phone.undo(id);
		await quiesce(all);
		expect(contents(await laptop.request(id))).toEqual(['first', 'answer to first', 'second', 'answer to second', 'third', 'answer to third']);
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});

	it('an attached image reaches the other device, which lists its session and sends the image', async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.attach(id, 'what is this?');
		await quiesce(all);
		expect(await phone.sessionIds()).toEqual([id]);
		const [row] = await listMessages(phone.db, id);
		const blob = await phone.db.blobs.get([id, row.attachments![0].id]);
		expect(new Uint8Array(await blob!.data.arrayBuffer())).toEqual(TINY_PNG);
		expect(row.blobs_not_synced).toBeUndefined();
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});

	it('takes any number of messages that sort between two of its own, and goes on pulling', async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.send(id, 'start');
		await quiesce(all);
		// The phone's clock is an hour behind: 60 messages it writes offline sort between the laptop's two.
		phone.skewMs = -60 * 60 * 1000;
		for (let i = 0; i < 30; i++) await phone.send(id, `phone ${i}`);
		await laptop.send(id, 'laptop');
		await quiesce(all);
		for (let i = 0; i < 30; i++) await phone.send(id, `phone again ${i}`);
		await quiesce(all);
		expect(await laptop.contents(id)).toHaveLength(124);
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});

	it('refuses and counts a document written from a clock far ahead, and keeps writing its own', async () => {
		const { url, all } = await devices(1);
		const [laptop] = all;
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await laptop.sync();
		const [row] = await listMessages(laptop.db, id);
		const copy = (await (await fetch(`${url}/${encodeURIComponent(`msg:${id}:${row.position}`)}`)).json()) as Record<string, unknown>;
		const [ahead] = positionsAfter(undefined, 1, laptop.now() + 3 * 24 * 60 * 60 * 1000);
		await fetch(`${url}/${encodeURIComponent(`msg:${id}:${ahead}`)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...copy, _id: undefined, _rev: undefined, fields: { ...(copy.fields as object), id: 'from-the-future' } }) });
		const outcome = await laptop.sync();
		expect(outcome.skipped).toEqual([{ id: `msg:${id}:${ahead}`, reason: expect.stringMatching(/a clock more than a day ahead/) }]);
		await laptop.send(id, 'still here');
		expect((await laptop.contents(id)).at(-1)).toBe('answer to still here');
		await Promise.all(all.map((device) => device.close()));
	});

	it('fires no hook and writes no receipt for what arrives, and never sends settings', async () => {
		const { url, all } = await devices(2);
		const [laptop, phone] = all;
		await writeSettings(laptop.db, { 'sync.server': 'SECRET-SETTING' });
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		await laptop.compact(id).catch(() => false);
		await quiesce(all);
		expect(phone.fired).toEqual([]);
		expect(await phone.db.receipts.count()).toBe(0);
		const everything = await (await fetch(`${url}/_all_docs?include_docs=true`)).text();
		expect(everything).not.toContain('SECRET-SETTING');
		await Promise.all(all.map((device) => device.close()));
	});
});

describe('what comes back from the server', () => {
	it('what one device changed together, the other takes together, though the waiting feed wakes at its first change', async () => {
		const url = await newDatabase();
		// The phone's fetch says when its long-poll is open: the server answers with headers only once it waits for a change.
		let opened!: () => void;
		const waiting = new Promise<void>((resolve) => (opened = resolve));
		const fetchSaying: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			if (String(input).includes('feed=longpoll')) opened();
			return response;
		};
		const laptop = new Device(url, 'laptop', { seed: 1 });
		const phone = new Device(url, 'phone', { seed: 2, fetch: fetchSaying });
		const id = await laptop.newSession();
		await laptop.send(id, 'first');
		await laptop.send(id, 'second');
		await laptop.compact(id);
		await quiesce([laptop, phone]);
		const pass = phone.loop.syncOnce(undefined, 20_000);
		await waiting;
		// The undo rewrites the summary and the rows it covered in one transaction, sent in one request.
		expect(await laptop.undo(id)).toBe(true);
		expect(await laptop.sync()).toMatchObject({ pushed: 4 });
		// One pass of the phone, woken by the first of them, takes them all before it applies any.
		expect(await pass).toMatchObject({ pulled: 4 });
		await expectSame(laptop, phone, id);
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('a device takes nothing of its own writes when the changes feed brings them back, and still takes what another device wrote', async () => {
		const { all } = await devices(2);
		const [laptop, phone] = all;
		const id = await laptop.newSession();
		await laptop.send(id, 'hello');
		expect(await laptop.sync()).toMatchObject({ pushed: 3, pulled: 0 });
		expect(await phone.sync()).toMatchObject({ pushed: 0, pulled: 3 });
		await phone.send(id, 'from the phone');
		await phone.rename(id, 'Renamed on the phone');
		expect(await phone.sync()).toMatchObject({ pulled: 0 });
		expect(await laptop.sync()).toMatchObject({ pushed: 0, pulled: 3 });
		await expectSame(laptop, phone, id);
		await Promise.all(all.map((device) => device.close()));
	});
});
