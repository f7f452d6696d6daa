// The budgets of a plugin's storage calls: bytes a second, overwrites counted in full, refused
// past the burst with a message that says why; writes a second, made to wait past their burst.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../memory-storage';
import { STORAGE_BYTES_BURST, STORAGE_BYTES_PER_SECOND, STORAGE_WRITES_BURST, STORAGE_WRITES_PER_SECOND } from '../plugin-budgets';
import { StorageGate } from './storage-gate';

function gate() {
	let now = 0;
	const slept: number[] = [];
	let refused = 0;
	const gate = new StorageGate(
		'flood',
		() => refused++,
		() => now,
		async (ms) => {
			slept.push(ms);
			now += ms;
		}
	);
	const storage = createMemoryStorage('flood', () => true, new Map(), 100 * 1024 * 1024);
	return { gate, storage, slept, refused: () => refused, pass: (ms: number) => (now += ms) };
}

const NEAR_MB = 'x'.repeat((1024 * 1024 - 64 * 1024) / 2);

describe('the storage gate', () => {
	it('refuses near-megabyte overwrites of one key past the bytes budget, and lets them through again as it refills', async () => {
		const g = gate();
		let stored = 0;
		for (let i = 0; i < 20; i++) {
			try {
				await g.gate.serve(g.storage, { op: 'set', key: `big-${i % 3}`, value: NEAR_MB });
				stored++;
			} catch (error) {
				expect((error as Error).message).toMatch(/read and wrote more than 1 MB a second of its storage, so this call was refused/);
			}
		}
		// Overwrites never fill the storage, but every byte counts against the rate.
		expect(stored).toBe(Math.floor(STORAGE_BYTES_BURST / (NEAR_MB.length * 2)));
		expect(g.refused()).toBe(20 - stored);
		g.pass(1000);
		await expect(g.gate.serve(g.storage, { op: 'set', key: 'big-0', value: NEAR_MB })).resolves.toBeUndefined();
		// Reads count too, paid once read: the read that empties the budget is the last let through.
		g.pass(60_000);
		const reads = Math.ceil(STORAGE_BYTES_BURST / (NEAR_MB.length * 2));
		for (let i = 0; i < reads; i++) await g.gate.serve(g.storage, { op: 'get', key: 'big-0' });
		await expect(g.gate.serve(g.storage, { op: 'get', key: 'big-0' })).rejects.toThrow(/more than 1 MB a second/);
		expect(STORAGE_BYTES_PER_SECOND).toBe(1024 * 1024);
	});

	it('makes small writes wait their turn past the burst, and refuses none of them', async () => {
		const g = gate();
		for (let i = 0; i < STORAGE_WRITES_BURST + 100; i++) await g.gate.serve(g.storage, { op: 'set', key: `k${i}`, value: i });
		expect(g.refused()).toBe(0);
		expect(await g.storage.keys()).toHaveLength(STORAGE_WRITES_BURST + 100);
		// The 100 past the burst waited about two seconds in all, at 50 a second.
		const waited = g.slept.reduce((sum, ms) => sum + ms, 0);
		expect(waited).toBeGreaterThanOrEqual((100 / STORAGE_WRITES_PER_SECOND) * 1000 - 50);
		expect(waited).toBeLessThanOrEqual((100 / STORAGE_WRITES_PER_SECOND) * 1000 + 100);
	});
});
