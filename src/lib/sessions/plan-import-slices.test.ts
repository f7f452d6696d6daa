import { describe, expect, it } from 'vitest';
import { orderParentsFirst, sliceEntries } from './plan-import-slices';

const entry = (id: string, parent: string | null = null, messages = 1) => ({
	session: { id, parent_session_id: parent },
	messages: Array.from({ length: messages }, (_, seq) => seq)
});
const idsOf = (entries: Array<{ session: { id: string } }>) => entries.map((e) => e.session.id);

describe('the order an import writes sessions in', () => {
	it('puts every session after the one it continues, however far down the file lists it, and keeps file order otherwise', () => {
		const file = [entry('c', 'b'), entry('x'), entry('b', 'a'), entry('a'), entry('d', 'a'), entry('outside', 'not-in-file')];
		expect(idsOf(orderParentsFirst(file))).toEqual(['a', 'b', 'c', 'x', 'd', 'outside']);
	});

	it('handles a lineage of thousands of links without recursion', () => {
		const chain = Array.from({ length: 20_000 }, (_, i) => entry(`s${i}`, i ? `s${i - 1}` : null)).reverse();
		const ordered = idsOf(orderParentsFirst(chain));
		expect(ordered[0]).toBe('s0');
		expect(ordered.at(-1)).toBe('s19999');
	});
});

describe('slices of an import', () => {
	it('hold whole sessions up to the row limit; a session larger than the limit gets a slice of its own', () => {
		const slices = sliceEntries([entry('a', null, 3), entry('b', null, 2), entry('big', null, 9), entry('c', null, 1), entry('d', null, 4), entry('e', null, 0)], 5);
		expect(slices.map(idsOf)).toEqual([['a', 'b'], ['big'], ['c', 'd', 'e']]);
	});

	it('an empty file has no slices', () => {
		expect(sliceEntries([], 5)).toEqual([]);
	});
});
