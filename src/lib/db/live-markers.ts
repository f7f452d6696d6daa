// Which compactions of a session are still in effect, in the order they were made: the last is
// the one Undo takes back and the one a new compaction follows.
import type { MessageRow } from './schema';

/** The compaction markers still in effect among a session's active rows, oldest first. */
export function liveMarkers(active: readonly MessageRow[]): MessageRow[] {
	// Two made in the same millisecond on two devices: the same one is the latest on both.
	return active.filter((row) => row.compaction && row.compaction.undone_at === undefined).sort((a, b) => a.compaction!.at - b.compaction!.at || (a.compaction!.id < b.compaction!.id ? -1 : a.compaction!.id > b.compaction!.id ? 1 : 0));
}

/**
 * The time a new compaction of these active rows takes: now, or just after the latest one still in
 * effect when a device whose clock runs ahead made that one. "The latest compaction" (the one Undo
 * takes back) is then the last one made, on every device, however far apart their clocks are.
 */
export function nextMarkerTime(active: readonly MessageRow[], now: number): number {
	return Math.max(now, (liveMarkers(active).at(-1)?.compaction!.at ?? -Infinity) + 1);
}
