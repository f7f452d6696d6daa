// Where a message row sits in its session on every device: its rank, a string the session's rows
// sort by. An appended row's rank is its position; a row placed among others (a compaction's
// summary or stubs, an edited summary) gets an order key between its neighbours', followed by its
// position. Keys grow in length instead of running out, so no placement ever lacks room, and two
// rows given the same key still sort alike everywhere (by position). Pure.

/** Crockford's base32, as positions use it, in ascending order. */
const DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Sorts below every digit, so a shorter key sorts before its longer extensions whatever follows. */
const SEPARATOR = ' ';

/** The rank of a row at `position`, placed with `order` (none: where its position puts it). */
export function rankOf(position: string, order?: string): string {
	return order === undefined || order === position ? position : `${order}${SEPARATOR}${position}`;
}

/** The order key of a rank: the part before the position (the position itself for an appended row). */
export function orderOfRank(rank: string): string {
	const at = rank.indexOf(SEPARATOR);
	return at < 0 ? rank : rank.slice(0, at);
}

/** The order key a rank carries, or undefined when the row sits where its position puts it. */
export function orderKeyOf(rank: string | undefined): string | undefined {
	if (rank === undefined) return undefined;
	const at = rank.indexOf(SEPARATOR);
	return at < 0 ? undefined : rank.slice(0, at);
}

/** The rank a row sorts by: its own, else its position (rows written before ranks). */
export function rowRank(row: { rank?: string; position: string }): string {
	return row.rank ?? row.position;
}

/** Whether `value` is an order key: digits of the alphabet, not ending in its zero digit. */
export function isOrderKey(value: unknown): value is string {
	return typeof value === 'string' && value.length > 0 && value.length <= MAX_ORDER_CHARS && /^[0-9A-HJKMNP-TV-Z]+$/.test(value);
}

/** Order keys longer than this are refused from other devices (a key grows by about a character per placement at one spot). */
export const MAX_ORDER_CHARS = 2_000;

const digit = (text: string, at: number) => DIGITS.indexOf(text[at] ?? '0');

/** A key strictly between `low` and `high` (no high: above `low`); neither ends with the zero digit, low < high. */
function midpoint(low: string, high: string | null): string {
	if (high !== null) {
		let shared = 0;
		while ((low[shared] ?? '0') === high[shared]) shared++;
		if (shared > 0) return high.slice(0, shared) + midpoint(low.slice(shared), high.slice(shared));
	}
	const a = low ? digit(low, 0) : 0;
	const b = high !== null ? digit(high, 0) : DIGITS.length;
	if (b - a > 1) return DIGITS[(a + b) >> 1];
	// Neighbouring digits: a's digit, then anything above the rest of low.
	if (high !== null && high.length > 1) return high[0];
	return DIGITS[a] + midpoint(low.slice(1), null);
}

/**
 * An order key strictly between the order keys `low` and `high` (undefined: no bound). When the
 * two are equal (two devices placed rows at one spot at once), one just above `low` is returned:
 * the rows then sort by position.
 */
export function keyBetween(low: string | undefined, high: string | undefined): string {
	const a = (low ?? '').replace(/0+$/, '');
	const b = high === undefined ? null : high.replace(/0+$/, '');
	if (b !== null && !(a < b)) return midpoint(a, null);
	return midpoint(a, b);
}

/**
 * An order key bound for a row placed after every row of a session whose greatest position is
 * `lastPosition`: above it, and below every position the session gives from now on (those pass
 * `lastPosition` within its 26 characters), so rows appended later still sort after it.
 */
export function ceilingAbove(lastPosition: string | undefined): string | undefined {
	return lastPosition === undefined ? undefined : `${lastPosition}V`;
}

/** The indexes of a longest strictly increasing run (not necessarily contiguous) of `values`. */
function longestIncreasing(values: readonly string[]): Set<number> {
	const tails: number[] = [];
	const before: number[] = new Array(values.length).fill(-1);
	values.forEach((value, index) => {
		let [low, high] = [0, tails.length];
		while (low < high) {
			const mid = (low + high) >> 1;
			if (values[tails[mid]] < value) low = mid + 1;
			else high = mid;
		}
		if (low > 0) before[index] = tails[low - 1];
		tails[low] = index;
	});
	const kept = new Set<number>();
	for (let at = tails.at(-1) ?? -1; at >= 0; at = before[at]) kept.add(at);
	return kept;
}

/**
 * Ranks for rows given in the order they are shown (seq order): as many as can keep their
 * positions do (the longest run of positions already in order), and each other row gets an order
 * key between its neighbours'. For rows written before ranks existed, and rows of an imported
 * file: the order shown stays exactly as it was, and rows appended later still come after.
 */
export function ranksInOrder(positions: readonly string[]): string[] {
	const kept = longestIncreasing(positions);
	let ceiling: string | undefined;
	for (const position of positions) if (ceiling === undefined || position > ceiling) ceiling = position;
	const ranks: string[] = [];
	let previous: string | undefined;
	positions.forEach((position, at) => {
		let rank = position;
		if (!kept.has(at)) {
			let next: string | undefined;
			for (let later = at + 1; later < positions.length && next === undefined; later++) if (kept.has(later)) next = positions[later];
			rank = rankOf(position, keyBetween(previous === undefined ? undefined : orderOfRank(previous), next ?? ceilingAbove(ceiling)));
		}
		ranks.push(rank);
		previous = rank;
	});
	return ranks;
}
