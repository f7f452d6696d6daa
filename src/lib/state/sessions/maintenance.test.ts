// The maintenance pass (at start-up, every ten minutes, "Clean up now") also deletes for good what
// waited in "Recently deleted" past its days, with sync stopped: the purge is sent when sync next runs.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Device, quiesce } from '../../../../tests/support/sync-device';
import { useCouchDatabases } from '../../sync/test-couch';
import { MaintenanceState } from './maintenance.svelte';
import type { Services } from '../app/services';

const { newDatabase } = useCouchDatabases('maintenance');
const DAY = 24 * 60 * 60 * 1000;

/** The maintenance of the app on `device`, with Settings as given. */
function maintenanceOn(device: Device, settings: Record<string, unknown>): MaintenanceState {
	const values: Record<string, unknown> = { 'sessions.retention_days': 0, 'sessions.auto_archive_days': 0, 'sync.keep_deleted_days': 30, ...settings };
	const services = { settings: { loaded: true, get: (key: string) => values[key] }, sessionContext: () => device.ctx } as unknown as Services;
	return new MaintenanceState(services, () => null);
}

describe('maintenance with sync stopped', () => {
	it('deletes for good a session in Recently deleted past its days, and sync sends that when it runs again', async () => {
		const url = await newDatabase();
		const [laptop, phone] = [new Device(url, 'laptop'), new Device(url, 'phone')];
		const [kept, old] = [await laptop.newSession(), await laptop.newSession()];
		await laptop.send(kept, 'staying');
		await laptop.send(old, 'soon gone');
		await quiesce([laptop, phone]);
		await phone.delete(old);
		await quiesce([laptop, phone]);
		expect(await laptop.trashIds()).toEqual([old]);
		// Sync stops on the laptop; a pass within the days keeps the session, one past them does not.
		const maintenance = maintenanceOn(laptop, { 'sync.keep_deleted_days': 7 });
		Device.clock += 6 * DAY;
		await maintenance.cleanUpNow();
		expect(await laptop.trashIds()).toEqual([old]);
		Device.clock += 2 * DAY;
		await maintenance.cleanUpNow();
		expect(await laptop.trashIds()).toEqual([]);
		expect(await laptop.sessionIds()).toEqual([kept]);
		await laptop.sync();
		const server = (await (await fetch(`${url}/${encodeURIComponent(`session:${old}`)}`)).json()) as { purged_at?: unknown };
		expect(server.purged_at).toEqual(expect.any(Number));
		await Promise.all([laptop, phone].map((device) => device.close()));
	});
});
