// A sync pass works in batches that overlap: while one batch is on its way to the server, the
// next is read (this device's latest changes taken in a slice of the outbox at a time) and the
// one before is marked sent; while one page of the feed is applied, the next is read. Whatever
// happens meanwhile, every change reaches the other devices, and nothing is marked sent but by
// its own sending.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../tests/support/sync-device';
import { updateMessage } from '../db/message-verbs';
import type { MessageRow } from '../db/schema';
import { renameSession } from '../db/session-verbs';
import { parseDocId, type DocumentId } from './document-ids';
import { DeletionsToConfirm, type PushResult } from './sync-store';
import { useCouchDatabases } from './test-couch';

const { newDatabase } = useCouchDatabases('batches');

/** Batches of a few documents, pages of a few changes, slices of a few outbox entries. */
const SMALL = { loop: { batchBytes: 1_500, pullLimit: 4 }, store: { stampChunk: 3 } };

async function sessionsWithMessages(device: Device, sessions: number, messages: number): Promise<string[]> {
	const ids: string[] = [];
	for (let s = 0; s < sessions; s++) {
		const id = await device.newSession();
		for (let m = 0; m < messages; m++) await device.send(id, `question ${m} of session ${s}`);
		ids.push(id);
	}
	return ids;
}

describe('a pass in overlapping batches', () => {
	it('sends everything a device holds in many small batches, and the other device receives it whole in many pages', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', SMALL), new Device(url, 'phone', SMALL)];
		const ids = await sessionsWithMessages(laptop, 4, 3);
		const sent = await laptop.sync();
		expect(sent.pushed).toBe(4 + 4 * 3 * 2);
		expect(await laptop.store.pendingCount()).toBe(0);
		expect(await laptop.db.sync_outbox.count()).toBe(0);
		const received = await phone.sync();
		expect(received.pulled).toBe(4 + 4 * 3 * 2);
		expect(await phone.sessionIds()).toEqual([...ids].sort());
		for (const id of ids) expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('reads each message row once while sending, though a batch has no room for all the messages a read of the outbox took in', async () => {
		const url = await newDatabase();
		// Slices of the outbox larger than a batch holds.
		const [laptop, phone] = [new Device(url, 'laptop', { loop: { batchBytes: 1_500 }, store: { stampChunk: 40 } }), new Device(url, 'phone')];
		const ids = await sessionsWithMessages(laptop, 3, 4);
		const reads = new Map<string, number>();
		laptop.db.use({
			stack: 'dbcore',
			name: 'count-message-reads',
			create: (down) => ({
				...down,
				table: (name) => {
					const table = down.table(name);
					if (name !== 'messages') return table;
					const count = (rows: unknown[]) => {
						for (const row of rows as (MessageRow | undefined)[]) if (row) reads.set(`${row.session_id}:${row.seq}`, (reads.get(`${row.session_id}:${row.seq}`) ?? 0) + 1);
						return rows;
					};
					return {
						...table,
						query: async (req) => {
							const answer = await table.query(req);
							if (req.values) count(answer.result);
							return answer;
						},
						getMany: async (req) => count(await table.getMany(req))
					};
				}
			})
		});
		laptop.db.close();
		await laptop.db.open();
		const sent = await laptop.sync();
		expect(sent.pushed).toBe(3 + 3 * 4 * 2);
		expect(reads.size).toBe(3 * 4 * 2);
		expect([...reads.values()].every((times) => times === 1)).toBe(true);
		await phone.sync();
		for (const id of ids) expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('sends a change made while an earlier batch was on its way, which that batch does not mark sent', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', SMALL), new Device(url, 'phone', SMALL)];
		const ids = await sessionsWithMessages(laptop, 3, 2);
		// When the first batch's answer is marked, the user has just renamed a session that batch
		// sent and written to another, and a later batch has already taken those changes in.
		const mark = laptop.store.markPushed.bind(laptop.store);
		let marked = 0;
		let renamed = '';
		laptop.store.markPushed = async (results: readonly PushResult[]) => {
			if (marked++ === 0) {
				renamed = results.find((result) => result.id.startsWith('session:'))!.id.slice('session:'.length);
				await renameSession(laptop.db, renamed, 'Renamed while sending');
				await laptop.send(renamed, 'written while sending');
				await laptop.store.pending(1 << 20, { edit: Number.MAX_SAFE_INTEGER, outbox: null });
			}
			return mark(results);
		};
		await quiesce([laptop, phone]);
		expect(marked).toBeGreaterThan(1);
		expect((await phone.db.sessions.get(renamed))?.title).toBe('Renamed while sending');
		expect(await phone.contents(renamed)).toContain('written while sending');
		for (const id of ids) expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('sends a new message changed while its first sending was on its way again, as an edit', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', SMALL), new Device(url, 'phone', SMALL)];
		await sessionsWithMessages(laptop, 2, 2);
		// A message sync had never sent is on its way when the user changes it.
		const mark = laptop.store.markPushed.bind(laptop.store);
		let changed: MessageRow | undefined;
		laptop.store.markPushed = async (results: readonly PushResult[]) => {
			const first = results.find((result) => result.id.startsWith('msg:'));
			if (!changed && first) {
				const id = parseDocId(first.id) as Extract<DocumentId, { kind: 'message' }>;
				changed = (await laptop.db.messages.where('[session_id+position]').equals([id.session_id, id.position]).first())!;
				await updateMessage(laptop.db, [changed.session_id, changed.seq], { content: 'changed while sending' });
			}
			return mark(results);
		};
		await quiesce([laptop, phone]);
		expect(await phone.contents(changed!.session_id)).toContain('changed while sending');
		expect(await phone.conversation(changed!.session_id)).toEqual(await laptop.conversation(changed!.session_id));
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('moves at most ten sessions deleted elsewhere without asking, over all the pages of a pull, each read while the one before is applied', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop', SMALL), new Device(url, 'phone')];
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) ids.push(await laptop.newSession());
		await quiesce([laptop, phone]);
		for (const id of ids) await phone.delete(id);
		await phone.sync();
		// Pages of four deletions: two pages move eight, the third asks (the page read after it is left for later).
		await expect(laptop.sync()).rejects.toBeInstanceOf(DeletionsToConfirm);
		expect(await laptop.sessionIds()).toHaveLength(4);
		expect(await laptop.trashIds()).toHaveLength(8);
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('reads its own writes coming back by their ids and revisions alone, and takes in full only what another device wrote among them', async () => {
		const url = await newDatabase();
		const asked: { path: string; body: string }[] = [];
		const watching: typeof fetch = (input, init) => {
			const address = new URL(String(input));
			asked.push({ path: address.pathname + address.search, body: typeof init?.body === 'string' ? init.body : '' });
			return fetch(input, init);
		};
		const [laptop, phone] = [new Device(url, 'laptop', { ...SMALL, fetch: watching }), new Device(url, 'phone')];
		const ids = await sessionsWithMessages(laptop, 4, 2);
		// While the laptop sends, the phone writes a session of its own, which lands among the laptop's documents on the server.
		const mark = laptop.store.markPushed.bind(laptop.store);
		let theirs = '';
		let marked = 0;
		laptop.store.markPushed = async (results: readonly PushResult[]) => {
			if (++marked === 2) {
				theirs = await phone.newSession();
				await phone.send(theirs, 'from the phone');
				await phone.sync();
			}
			return mark(results);
		};
		await laptop.sync();
		expect(await laptop.sessionIds()).toEqual([...ids, theirs].sort());
		expect(await laptop.contents(theirs)).toEqual(await phone.contents(theirs));
		const changes = asked.filter((request) => request.path.includes('/_changes'));
		expect(changes.some((request) => request.path.includes('style=all_docs') && !request.path.includes('include_docs'))).toBe(true);
		// Bodies read by id: only documents the laptop did not write.
		const readById = asked.filter((request) => request.path.includes('/_all_docs')).flatMap((request) => (JSON.parse(request.body) as { keys: string[] }).keys);
		expect(readById.length).toBeGreaterThan(0);
		for (const id of readById) expect(id.includes(theirs)).toBe(true);
		await Promise.all([laptop.close(), phone.close()]);
	});

	it('reads the feed after sending by ids and revisions from its first page, and knows its own writes there without looking them up', async () => {
		const url = await newDatabase();
		const asked: string[] = [];
		const watching: typeof fetch = (input, init) => {
			const address = new URL(String(input));
			asked.push(address.pathname + address.search);
			return fetch(input, init);
		};
		const [laptop, phone] = [new Device(url, 'laptop', { ...SMALL, fetch: watching }), new Device(url, 'phone', SMALL)];
		const ids = await sessionsWithMessages(laptop, 3, 2);
		const lookUp = laptop.store.knownRevisions.bind(laptop.store);
		const looked: string[] = [];
		laptop.store.knownRevisions = async (docIds: readonly string[], revs: readonly string[]) => {
			looked.push(...docIds);
			return lookUp(docIds, revs);
		};
		const sent = await laptop.sync();
		expect(sent.pushed).toBe(3 + 3 * 2 * 2);
		const changes = asked.filter((path) => path.includes('/_changes'));
		expect(changes.length).toBeGreaterThan(0);
		for (const path of changes) expect(path).not.toContain('include_docs');
		expect(looked).toEqual([]);
		// The feed was read to its end.
		const info = (await (await fetch(url)).json()) as { update_seq: number | string };
		expect(await laptop.store.checkpoint()).toBe(String(info.update_seq));
		await phone.sync();
		for (const id of ids) expect(await phone.conversation(id)).toEqual(await laptop.conversation(id));
		await Promise.all([laptop.close(), phone.close()]);
	});
});
