import { describe, expect, it } from 'vitest';
import { groupBounds, groupStarts } from './session-groups';

describe('sidebar groups', () => {
	it('start where each group with sessions begins, in the order of the list', () => {
		expect([...groupStarts({ pinned: 2, today: 0, yesterday: 3, week: 1, older: 4 })]).toEqual([
			[0, 'Pinned'],
			[2, 'Yesterday'],
			[5, 'Previous 7 days'],
			[6, 'Older']
		]);
		expect([...groupStarts({ pinned: 0, today: 0, yesterday: 0, week: 0, older: 0 })]).toEqual([]);
	});

	it('are bounded by local midnights: today, yesterday, and the seven days before yesterday', () => {
		const bounds = groupBounds(new Date(2025, 2, 10, 15, 30));
		expect(bounds.today).toBe(new Date(2025, 2, 10).getTime());
		expect(bounds.yesterday).toBe(new Date(2025, 2, 9).getTime());
		expect(bounds.week).toBe(new Date(2025, 2, 2).getTime());
		// Across a month's end.
		expect(groupBounds(new Date(2025, 2, 1, 8)).yesterday).toBe(new Date(2025, 1, 28).getTime());
	});
});
