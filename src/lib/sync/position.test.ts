// Message positions: every device orders a session's messages the same way, a reply sorts after
// everything its device had seen, whatever the devices' clocks say.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPosition, MAX_POSITION_TIME, nextPosition, positionTime } from './position';
import { seededRandom } from './test-random';

const YEAR = 365 * 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 0, 1);
const time = fc.integer({ min: 0, max: NOW + 50 * YEAR });

describe('nextPosition', () => {
	it('is a 26-character Crockford base32 ULID whose time part is now, the first in a session', () => {
		const position = nextPosition(undefined, NOW, seededRandom(1));
		expect(position).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
		expect(isPosition(position)).toBe(true);
		expect(positionTime(position)).toBe(NOW);
	});

	it('takes the time of now when the clock is past the last position seen', () => {
		const last = nextPosition(undefined, NOW, seededRandom(1));
		expect(positionTime(nextPosition(last, NOW + 5, seededRandom(2)))).toBe(NOW + 5);
	});

	it('steps past the last position seen when the clock is behind it or in the same millisecond', () => {
		const last = nextPosition(undefined, NOW, seededRandom(1));
		const same = nextPosition(last, NOW, seededRandom(2));
		const behind = nextPosition(last, NOW - 60_000, seededRandom(3));
		for (const next of [same, behind]) {
			expect(next > last).toBe(true);
			expect(positionTime(next)).toBe(NOW);
		}
	});

	it('gives two devices that saw the same last position and write in the same millisecond different positions', () => {
		const last = nextPosition(undefined, NOW + 60_000, seededRandom(1));
		// Both clocks are behind the last position: each steps past it by its own random amount.
		const phone = nextPosition(last, NOW, seededRandom(2));
		const laptop = nextPosition(last, NOW, seededRandom(3));
		expect(phone).not.toBe(laptop);
		expect(phone > last && laptop > last).toBe(true);
	});

	it('carries into the time part when the random part is full', () => {
		const last = nextPosition(undefined, NOW, () => new Uint8Array(10).fill(0xff));
		const next = nextPosition(last, 0, seededRandom(4));
		expect(next > last).toBe(true);
		expect(positionTime(next)).toBe(NOW + 1);
	});

	it('refuses a malformed last position, a time it cannot hold, and running out of positions', () => {
		const random = seededRandom(5);
		expect(() => nextPosition('01ARZ3NDEKTSV4RRFFQ69G5FAI', NOW, random)).toThrow(/Not a position/);
		expect(() => nextPosition('81ARZ3NDEKTSV4RRFFQ69G5FAV', NOW, random)).toThrow(/Not a position/);
		expect(() => nextPosition('01arz3ndektsv4rrffq69g5fav', NOW, random)).toThrow(/Not a position/);
		expect(() => nextPosition(undefined, -1, random)).toThrow(/time/);
		expect(() => nextPosition(undefined, 1.5, random)).toThrow(/time/);
		expect(() => nextPosition(undefined, MAX_POSITION_TIME + 1, random)).toThrow(/time/);
		expect(() => nextPosition('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', NOW, random)).toThrow(/No position is left/);
	});

	it('gives the same position for the same inputs on every device', () => {
		expect(nextPosition('01HZZZZZZZZZZZZZZZZZZZZZZZ', NOW, seededRandom(9))).toBe(nextPosition('01HZZZZZZZZZZZZZZZZZZZZZZZ', NOW, seededRandom(9)));
	});

	it('makes strictly increasing positions whatever the clock does (property)', () => {
		fc.assert(
			fc.property(fc.integer(), fc.array(time, { minLength: 1, maxLength: 200 }), (seed, clock) => {
				const random = seededRandom(seed);
				let last: string | undefined;
				for (const now of clock) {
					const next = nextPosition(last, now, random);
					expect(isPosition(next)).toBe(true);
					if (last !== undefined) expect(next > last).toBe(true);
					// The time part never lags the clock.
					expect(positionTime(next)).toBeGreaterThanOrEqual(now);
					last = next;
				}
			})
		);
	});

	it('orders as strings exactly as by time (property)', () => {
		fc.assert(
			fc.property(fc.integer(), time, time, (seed, a, b) => {
				const random = seededRandom(seed);
				const [first, second] = [nextPosition(undefined, a, random), nextPosition(undefined, b, random)];
				if (a < b) expect(first < second).toBe(true);
				if (a > b) expect(first > second).toBe(true);
			})
		);
	});

	it('sorts a reply after everything its device had seen, across skewed clocks (property)', () => {
		// Devices with clocks up to a day off write and exchange what they have seen in any order.
		const step = fc.record({ device: fc.nat(3), kind: fc.constantFrom('write', 'sync'), from: fc.nat(3), elapsed: fc.nat(5_000) });
		fc.assert(
			fc.property(
				fc.integer(),
				fc.array(fc.integer({ min: -24 * 3600_000, max: 24 * 3600_000 }), { minLength: 4, maxLength: 4 }),
				fc.array(step, { minLength: 1, maxLength: 120 }),
				(seed, skews, steps) => {
					const random = seededRandom(seed);
					const seen: (string | undefined)[] = [undefined, undefined, undefined, undefined];
					const written = new Set<string>();
					let wallClock = NOW;
					for (const { device, kind, from, elapsed } of steps) {
						wallClock += elapsed;
						if (kind === 'sync') {
							const theirs = seen[from];
							if (theirs !== undefined && (seen[device] === undefined || theirs > seen[device]!)) seen[device] = theirs;
							continue;
						}
						const position = nextPosition(seen[device], wallClock + skews[device], random);
						if (seen[device] !== undefined) expect(position > seen[device]!).toBe(true);
						expect(written.has(position)).toBe(false);
						written.add(position);
						seen[device] = position;
					}
				}
			)
		);
	});
});
