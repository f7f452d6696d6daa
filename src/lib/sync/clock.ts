// Clocks of synced edits: hybrid-clock ULIDs, as positions are (see position.ts), so a later edit
// has a greater clock even where device clocks disagree. A clock or position more than a day
// ahead of this device's clock is hostile input (a device cannot write from the future), and is
// refused where it is read; so no device can make its edits win for ever, or run the clocks out.
import { MAX_POSITION_TIME, nextPosition, positionTime, type RandomBytes } from './position';

/** How far ahead of this device's clock a clock from elsewhere may be. */
export const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

/** The lowest clock: a field that was never edited (a document of the format before clocks). */
export const ZERO_CLOCK = '0'.repeat(26);

/** The clock of an edit made at `now`, after every clock in `seen`. */
export function nextClock(seen: readonly (string | undefined)[], now: number, random: RandomBytes): string {
	let latest: string | undefined;
	for (const clock of seen) if (clock !== undefined && (latest === undefined || clock > latest)) latest = clock;
	return nextPosition(latest, Math.min(MAX_POSITION_TIME, Math.max(0, Math.floor(now))), random);
}

/** Whether a clock (or position) from elsewhere is within reach of this device's clock `now`. */
export function withinReach(clock: string, now: number): boolean {
	return positionTime(clock) <= now + MAX_AHEAD_MS;
}

/** The greater of two clocks. */
export function laterClock(a: string, b: string): string {
	return a > b ? a : b;
}
