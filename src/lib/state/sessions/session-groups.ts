// The sidebar's groups (Pinned, Today, Yesterday, Previous 7 days, Older) over the list's order,
// from the group sizes alone: the list holds ids only, and the rows of most sessions are never
// read. Pure.
import type { SessionGroupCounts } from '../../db/session-order';

export type { SessionGroupCounts };

export const GROUP_LABELS = {
	pinned: 'Pinned',
	today: 'Today',
	yesterday: 'Yesterday',
	week: 'Previous 7 days',
	older: 'Older'
} as const satisfies Record<keyof SessionGroupCounts, string>;

export type GroupLabel = (typeof GROUP_LABELS)[keyof typeof GROUP_LABELS];

/** Where the dated groups begin, in local time: the start of today, of yesterday, of the week before today. */
export function groupBounds(now: Date = new Date()): { today: number; yesterday: number; week: number } {
	const day = (offset: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - offset).getTime();
	return { today: day(0), yesterday: day(1), week: day(8) };
}

/** The position in the list where each group that has sessions begins, with its label. */
export function groupStarts(counts: SessionGroupCounts): Map<number, GroupLabel> {
	const starts = new Map<number, GroupLabel>();
	let at = 0;
	for (const key of Object.keys(GROUP_LABELS) as (keyof SessionGroupCounts)[]) {
		if (counts[key] > 0) starts.set(at, GROUP_LABELS[key]);
		at += counts[key];
	}
	return starts;
}
