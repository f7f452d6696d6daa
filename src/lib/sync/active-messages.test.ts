// Which messages are in the context is derived on each device from the compactions it holds: the
// folded messages stay readable but leave the context, and two compactions made at once are both kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activeMessages, type Covering, type Positioned } from './active-messages';
import { nextPosition } from './position';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);

/** Ten messages one millisecond apart, then positions for compactions made after them. */
function positions(count: number, seed = 1): string[] {
	const random = seededRandom(seed);
	return Array.from({ length: count }, (_, i) => nextPosition(undefined, NOW + i, random));
}

const P = positions(20);
const messages: Positioned[] = P.slice(0, 10).map((position) => ({ position }));
const names = new Map<string, string>([...P.entries()].map(([i, position]) => [position, i < 10 ? `m${i}` : `s${i}`]));
const namesOf = (items: Positioned[]) => items.map((item) => names.get(item.position));

describe('activeMessages', () => {
	it('is every message in position order when nothing is compacted', () => {
		expect(namesOf(activeMessages([...messages].reverse(), []))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
	});

	it('puts a summary where the messages it covers were, and leaves them out', () => {
		const summary: Covering = { position: P[10], covers: P.slice(0, 6) };
		expect(namesOf(activeMessages(messages, [summary]))).toEqual(['s10', 'm6', 'm7', 'm8', 'm9']);
	});

	it('keeps both of two summaries made at once on two devices, in order', () => {
		// Device A folded m0–m5; device B, not having seen it, folded m0–m7 with a clock behind A's.
		const [a, b]: Covering[] = [
			{ position: P[12], covers: P.slice(0, 6) },
			{ position: P[11], covers: P.slice(0, 8) }
		];
		expect(namesOf(activeMessages(messages, [a, b]))).toEqual(['s12', 's11', 'm8', 'm9']);
		expect(namesOf(activeMessages(messages, [b, a]))).toEqual(['s12', 's11', 'm8', 'm9']);
		// The same messages folded twice: the two summaries follow their own positions.
		const [c, d]: Covering[] = [
			{ position: P[13], covers: P.slice(0, 6) },
			{ position: P[14], covers: P.slice(0, 6) }
		];
		expect(namesOf(activeMessages(messages, [d, c]))).toEqual(['s13', 's14', 'm6', 'm7', 'm8', 'm9']);
	});

	it('folds a summary that a later compaction covers, and places the later one after what both covered', () => {
		const first: Covering = { position: P[10], covers: P.slice(0, 4) };
		const second: Covering = { position: P[11], covers: [...P.slice(4, 7), P[10]] };
		expect(namesOf(activeMessages(messages, [first, second]))).toEqual(['s11', 'm7', 'm8', 'm9']);
		// A compaction covering only an earlier summary takes that summary's place.
		const resummary: Covering = { position: P[12], covers: [P[10]] };
		expect(namesOf(activeMessages(messages, [resummary, first]))).toEqual(['s12', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
	});

	it('gives the same context whatever order the documents arrive in (property)', () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ at: fc.integer({ min: 10, max: 19 }), covers: fc.uniqueArray(fc.integer({ min: 0, max: 19 }), { maxLength: 6 }) }), { maxLength: 5 }),
				fc.infiniteStream(fc.nat()),
				(specs, picks) => {
					const seen = new Set<number>();
					// A compaction covers only positions before its own, as a device writes them.
					const summaries: Covering[] = specs
						.filter(({ at }) => !seen.has(at) && seen.add(at))
						.map(({ at, covers }) => ({ position: P[at], covers: covers.filter((i) => i < at).sort((x, y) => x - y).map((i) => P[i]) }));
					const expected = namesOf(activeMessages(messages, summaries));
					const it = picks[Symbol.iterator]();
					const shuffle = <T>(list: T[]) => list.map((item) => ({ item, key: it.next().value })).sort((x, y) => x.key - y.key).map(({ item }) => item);
					expect(namesOf(activeMessages(shuffle([...messages]), shuffle(summaries)))).toEqual(expected);
					// Nothing a present compaction covers is in the context; everything else is.
					const covered = new Set(summaries.flatMap((s) => s.covers));
					expect(new Set(expected)).toEqual(new Set([...messages, ...summaries].filter((item) => !covered.has(item.position)).map((item) => names.get(item.position))));
				}
			)
		);
	});
});
