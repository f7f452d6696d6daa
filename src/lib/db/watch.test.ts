import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProfileDb, type PalimpsestDb } from './database';
import { watchThrottled } from './watch';

let db: PalimpsestDb;
beforeEach(async () => {
	db = openProfileDb(`watch-${crypto.randomUUID()}`);
	await db.open();
});
afterEach(() => db.close());

const until = async (check: () => boolean, ms = 3000) => {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
};

describe('watchThrottled', () => {
	it('runs at once, then after a burst of writes runs again at most once per interval and ends on the latest data', async () => {
		let runs = 0;
		const seen: number[] = [];
		const stop = watchThrottled(
			db,
			['settings'],
			async () => {
				runs += 1;
				return db.settings.count();
			},
			(count) => seen.push(count),
			1000
		);
		await until(() => seen.length === 1);
		expect(seen).toEqual([0]);
		for (let i = 0; i < 20; i += 1) await db.settings.put({ key: `k${i}`, value: i });
		await until(() => seen.at(-1) === 20);
		// Twenty quick commits: one run at the start, then one or two more, not twenty.
		expect(runs).toBeLessThanOrEqual(3);
		stop();
	});

	it('ignores writes to other tables and stops cleanly', async () => {
		let runs = 0;
		const stop = watchThrottled(db, ['sessions'], async () => (runs += 1), () => {}, 10);
		await until(() => runs === 1);
		await db.settings.put({ key: 'x', value: 1 });
		await new Promise((resolve) => setTimeout(resolve, 60));
		expect(runs).toBe(1);
		stop();
		await db.sessions.put({ id: 's', title: 't' } as never);
		await new Promise((resolve) => setTimeout(resolve, 60));
		expect(runs).toBe(1);
	});

	it('follows writes to a watched table', async () => {
		const seen: number[] = [];
		const stop = watchThrottled(db, ['settings'], () => db.settings.count(), (n) => seen.push(n), 10);
		await until(() => seen.length === 1);
		await db.settings.put({ key: 'a', value: 1 });
		await until(() => seen.at(-1) === 1);
		stop();
	});
});
