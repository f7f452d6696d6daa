// Ranks order a session's rows on every device: a key between any two keys always exists (no
// placement runs out of room), and rows written before ranks keep the order they were shown in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilingAbove, keyBetween, orderOfRank, rankOf, ranksInOrder } from './rank';

const DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const key = fc.array(fc.constantFrom(...DIGITS), { minLength: 1, maxLength: 30 }).map((chars) => chars.join(''));

describe('keyBetween', () => {
	it('gives a key strictly between any two (property)', () => {
		fc.assert(
			fc.property(key, key, (x, y) => {
				const [low, high] = x < y ? [x, y] : [y, x];
				if (low === high || high.startsWith(low) && /^0*$/.test(high.slice(low.length))) return;
				const between = keyBetween(low, high);
				expect(between > low && between < high).toBe(true);
			})
		);
	});

	it('never runs out of room: a thousand rows placed one after another at one spot stay in order', () => {
		let low = '01KDVDNA1AYF4YQZ9B63R5RW3H';
		const high = '01KDVDNA1AYF4YQZ9B63R5RW3J';
		for (let i = 0; i < 1000; i++) {
			const next = keyBetween(low, high);
			expect(next > low && next < high).toBe(true);
			low = next;
		}
		expect(low.length).toBeLessThan(1100);
	});

	it('places a row after the last one below every position the session gives later', () => {
		const last = '01KDVDNA1AYF4YQZ9B63R5RW3H';
		const placed = keyBetween(last, ceilingAbove(last));
		expect(placed > last && placed < '01KDVDNA1AYF4YQZ9B63R5RW3J').toBe(true);
	});
});

describe('ranksInOrder', () => {
	it('keeps the order given, each rank its position where possible (property)', () => {
		const position = fc.integer({ min: 1, max: 10_000 }).map((n) => String(n).padStart(26, '0'));
		fc.assert(
			fc.property(fc.uniqueArray(position, { minLength: 1, maxLength: 40 }), (positions) => {
				const ranks = ranksInOrder(positions);
				expect([...ranks].sort()).toEqual(ranks);
				ranks.forEach((rank, at) => expect(rank.endsWith(positions[at])).toBe(true));
				// Rows appended later (past the greatest position) still sort after all of them.
				const later = String(10_001).padStart(26, '0');
				expect(ranks.every((rank) => rank < later)).toBe(true);
			})
		);
	});

	it('keeps the positions of a summary’s kept tail and gives the summary a key where it sits', () => {
		const [a, b, tail1, tail2, summary] = [1, 2, 3, 4, 9].map((n) => String(n).padStart(26, '0'));
		const ranks = ranksInOrder([a, b, summary, tail1, tail2]);
		expect(ranks).toEqual([a, b, rankOf(summary, keyBetween(orderOfRank(b), tail1)), tail1, tail2]);
	});
});
