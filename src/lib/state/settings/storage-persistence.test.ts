import { describe, expect, it, vi } from 'vitest';
import { StoragePersistence } from './storage-persistence.svelte';

function fakeStorage(answer: boolean, persisted = false) {
	return { persist: vi.fn(async () => answer), persisted: vi.fn(async () => persisted) };
}

describe('StoragePersistence', () => {
	it('does not ask at start-up, asks on the first message only, and keeps the answer', async () => {
		const storage = fakeStorage(true);
		const persistence = new StoragePersistence(() => storage);
		await persistence.check();
		expect(persistence.state).toBe('not-asked');
		expect(storage.persist).not.toHaveBeenCalled();
		persistence.askOnce();
		expect(persistence.state).toBe('asking');
		await vi.waitFor(() => expect(persistence.state).toBe('granted'));
		persistence.askOnce();
		expect(storage.persist).toHaveBeenCalledTimes(1);
	});

	it('shows a refusal, asks no more this visit on its own, and asks again when the user says so', async () => {
		const storage = fakeStorage(false);
		const persistence = new StoragePersistence(() => storage);
		await persistence.check();
		persistence.askOnce();
		await vi.waitFor(() => expect(persistence.state).toBe('denied'));
		persistence.askOnce();
		expect(storage.persist).toHaveBeenCalledTimes(1);
		storage.persist.mockResolvedValueOnce(true);
		await persistence.ask();
		expect(persistence.state).toBe('granted');
	});

	it('never asks when the data is already persistent, or the browser has no such thing', async () => {
		const kept = fakeStorage(true, true);
		const already = new StoragePersistence(() => kept);
		await already.check();
		expect(already.state).toBe('granted');
		already.askOnce();
		expect(kept.persist).not.toHaveBeenCalled();

		const none = new StoragePersistence(() => undefined);
		await none.check();
		expect(none.state).toBe('unsupported');
		none.askOnce();
		expect(none.state).toBe('unsupported');
	});

	it('counts a failed request as a refusal', async () => {
		const storage = { persist: vi.fn(async () => Promise.reject(new Error('blocked'))), persisted: vi.fn(async () => false) };
		const persistence = new StoragePersistence(() => storage);
		await persistence.ask();
		expect(persistence.state).toBe('denied');
	});
});
