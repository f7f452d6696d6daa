// Every local change to sessions, messages and Blobs is recorded for sync in its own transaction:
// nothing written is missed, nothing that rolled back is recorded, what sync itself writes is not
// a change of this device, and only the user's deletion (not a sweep's) is recorded as one.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from './database';
import { appendMessages, deleteMessages } from './message-verbs';
import { commitDeletion } from './deletion-verbs';
import { testSessionRow } from './test-session-row';

let db: PalimpsestDb;
afterEach(async () => {
	db.close();
	await db.delete();
});

const outbox = async () => (await db.sync_outbox.toArray()).map((row) => (row.intent ? `${row.id} ${row.intent}` : row.id)).sort();
const said = (id: string) => ({ id, role: 'user' as const, content: id, status: 'complete' as const, kind: 'message' as const, created_at: 1 });

describe('the sync outbox', () => {
	it('records the documents each write changed, in the same transaction', async () => {
		db = new PalimpsestDb(`outbox-${crypto.randomUUID()}`);
		await db.sessions.add(testSessionRow('s1'));
		const [row] = await appendMessages(db, 's1', [said('a')], 10, {}, [{ id: 'img', type: 'image/png', data: new Blob([new Uint8Array(4)]) }]);
		expect(await outbox()).toEqual([`blob:s1:img`, `msg:s1:${row.position}`, 'session:s1']);
		await db.sync_outbox.clear();
		// Rows removed by key: the session is looked at for what went.
		await deleteMessages(db, 's1', [row.seq]);
		expect(await outbox()).toEqual(['scan:s1', 'session:s1']);
	});

	it('marks each write afresh, so an entry read twice the same was not written in between, even within one millisecond', async () => {
		db = new PalimpsestDb(`outbox-${crypto.randomUUID()}`);
		await db.sessions.add(testSessionRow('s1'));
		const [row] = await appendMessages(db, 's1', [said('a')], 10);
		const id = `msg:s1:${row.position}`;
		const first = await db.sync_outbox.get(id);
		expect(await db.sync_outbox.get(id)).toEqual(first);
		const now = Date.now;
		Date.now = () => first!.at;
		try {
			await db.messages.update([row.session_id, row.seq], { content: 'changed' });
		} finally {
			Date.now = now;
		}
		const second = await db.sync_outbox.get(id);
		expect(second!.at).toBe(first!.at);
		expect(second!.write).not.toBe(first!.write);
	});

	it('records nothing of a write that rolled back, nor of what sync itself writes', async () => {
		db = new PalimpsestDb(`outbox-${crypto.randomUUID()}`);
		await db.sessions.add(testSessionRow('s1'));
		await db.sync_outbox.clear();
		await expect(
			db.transaction('rw', db.sessions, async () => {
				await db.sessions.update('s1', { title: 'never' });
				throw new Error('rolled back');
			})
		).rejects.toThrow('rolled back');
		expect(await outbox()).toEqual([]);
		await db.transaction('rw', [db.sessions, db.sync_docs], () => db.sessions.update('s1', { title: 'from elsewhere' }));
		expect(await outbox()).toEqual([]);
	});

	it('records the user’s deletion as one, and a sweep’s removal as this device’s own', async () => {
		db = new PalimpsestDb(`outbox-${crypto.randomUUID()}`);
		await db.sessions.bulkAdd([testSessionRow('s1'), testSessionRow('s2')]);
		await db.sync_outbox.clear();
		await commitDeletion(db, { op_id: 'op-1', reason: 'delete', session_id: 's1', at: 5, remove: ['s1'] });
		await commitDeletion(db, { op_id: 'op-2', reason: 'prune', session_id: 's2', at: 6, remove: ['s2'] });
		expect(await outbox()).toEqual(['deleted:s1 delete', 'scan:s1', 'scan:s2', 'session:s1', 'session:s2']);
	});
});
