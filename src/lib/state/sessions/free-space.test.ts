import { describe, expect, it } from 'vitest';
import type { SessionSize } from '../../db/measure-sessions';
import type { OperationOutcome } from '../../sessions/announce-removal';
import { FreeSpace, formatSize, LISTED } from './free-space.svelte';

const size = (id: string, chars: number): SessionSize => ({ id, title: id, archived: 0, pinned: 0, last_activity_at: 1, messages: 1, chars });

describe('FreeSpace', () => {
	it('lists the largest sessions, deletes only the ticked ones, and reports the space before and after', async () => {
		let stored = Array.from({ length: LISTED + 5 }, (_, i) => size(`s${i}`, (LISTED + 5 - i) * 1000));
		let usage = 9 * 1024 * 1024;
		const removed: string[][] = [];
		const free = new FreeSpace({
			measure: async () => stored,
			estimate: async () => ({ usage, quota: 10 * 1024 * 1024 }),
			remove: async (ids) => {
				removed.push(ids);
				stored = stored.filter((s) => !ids.includes(s.id));
				usage -= 2 * 1024 * 1024;
				const outcome: OperationOutcome = { op_id: 'op-1', reason: 'delete', ids, detached: [], replayed: false };
				return outcome;
			}
		});
		await free.show();
		expect(free.open).toBe(true);
		expect(free.largest).toHaveLength(LISTED);
		expect(free.total).toBe(LISTED + 5);
		await free.deleteChosen();
		expect(removed).toEqual([]);

		free.toggle('s0', true);
		free.toggle('s2', true);
		free.toggle('s2', false);
		expect(free.chosenChars).toBe((LISTED + 5) * 1000);
		await free.deleteChosen();
		expect(removed).toEqual([['s0']]);
		expect(free.largest[0].id).toBe('s1');
		expect(free.chosen.size).toBe(0);
		expect(free.outcome).toBe('Deleted 1 session. This site now stores 7.0 MB (it was 9.0 MB).');
	});

	it('says nothing was deleted when the deletion fails', async () => {
		const free = new FreeSpace({
			measure: async () => [size('a', 10)],
			estimate: async () => null,
			remove: async () => {
				throw new Error('The session is busy.');
			}
		});
		await free.show();
		free.toggle('a', true);
		await free.deleteChosen();
		expect(free.error).toBe('Nothing was deleted: The session is busy.');
		expect(free.chosen.has('a')).toBe(true);
	});

	it('formats sizes', () => {
		expect(formatSize(10)).toBe('1 KB');
		expect(formatSize(640 * 1024)).toBe('640 KB');
		expect(formatSize(2.45 * 1024 * 1024)).toBe('2.5 MB');
	});
});
