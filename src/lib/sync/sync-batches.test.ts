// A sync pass works in batches: this device's latest changes are taken in a slice of the outbox
// at a time as the batches need them, and a page of the feed at a time is applied. However small
// the batches, every change reaches the other devices.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device } from '../../../tests/support/sync-device';
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

describe('a pass in batches', () => {
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
});
