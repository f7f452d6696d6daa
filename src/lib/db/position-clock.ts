// Positions for rows this device writes (see sync/position.ts), worked out before a transaction:
// pure, so an import can give them while it reads a file.
import { cryptoRandom, isPosition, MAX_POSITION_TIME, nextPosition, type RandomBytes } from '../sync/position';

export { isPosition, type RandomBytes };

/** A time a position holds: whole milliseconds, within what the clock can write. */
export function positionClock(time: number): number {
	return Number.isFinite(time) ? Math.min(MAX_POSITION_TIME, Math.max(0, Math.floor(time))) : 0;
}

/** The next position after `last` at `now` (any number: it is brought within the clock's range). */
export function positionAfter(last: string | undefined, now: number, random: RandomBytes = cryptoRandom): string {
	return nextPosition(last, positionClock(now), random);
}

/** `count` positions in ascending order, each after `last` (the greatest one the session holds). */
export function positionsAfter(last: string | undefined, count: number, now: number, random: RandomBytes = cryptoRandom): string[] {
	const out: string[] = [];
	for (let i = 0; i < count; i++) out.push((last = positionAfter(last, now, random)));
	return out;
}

/**
 * Rows with positions, given in seq order: a row's own valid one is kept (with `keep`), the
 * others take one past the greatest given so far, at the row's time (`timeOf`). For rows that
 * have never synced: an imported file, a copy into a new session.
 */
export function withPositionsInOrder<R extends { seq: number; position?: string }>(
	rows: readonly R[],
	timeOf: (row: R) => number,
	{ keep = false, random = cryptoRandom }: { keep?: boolean; random?: RandomBytes } = {}
): (R & { position: string })[] {
	let last: string | undefined;
	const placed = new Map<R, string>();
	for (const row of [...rows].sort((a, b) => a.seq - b.seq)) {
		const position = keep && isPosition(row.position) ? row.position : positionAfter(last, timeOf(row), random);
		if (last === undefined || position > last) last = position;
		placed.set(row, position);
	}
	return rows.map((row) => ({ ...row, position: placed.get(row)! }));
}
