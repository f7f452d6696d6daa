import { describe, expect, it } from 'vitest';
import type { ParentKind } from '../db/schema';
import { SessionFamily, selectWholeGroups, type SessionLink } from './plan-cascade';

const link = (id: string, parent: string | null = null, kind: ParentKind | null = null, import_id?: string): SessionLink => ({
	id,
	parent_session_id: parent,
	parent_kind: parent ? kind : null,
	...(import_id ? { import_id } : {})
});

// a → b → c is one conversation compacted twice; d is a sub-agent of c; e branched from b;
// f is a sub-agent of e (it belongs to the branch, not to the lineage).
const family = new SessionFamily([
	link('a'),
	link('b', 'a', 'compression'),
	link('c', 'b', 'compression'),
	link('d', 'c', 'delegate'),
	link('e', 'b', 'branch'),
	link('f', 'e', 'delegate'),
	link('other')
]);

describe('what goes together', () => {
	it.each([['a'], ['b'], ['c']])('any link of a compression lineage takes the whole lineage and its sub-agents (from %s)', (id) => {
		expect(family.closureOf([id]).sort()).toEqual(['a', 'b', 'c', 'd']);
	});

	it('a sub-agent session goes alone: its parent stays', () => {
		expect(family.closureOf(['d'])).toEqual(['d']);
		expect(family.closureOf(['f'])).toEqual(['f']);
	});

	it('a branch takes its own sub-agents, not the session it branched from', () => {
		expect(family.closureOf(['e']).sort()).toEqual(['e', 'f']);
	});

	it('lists the named sessions first, in order, and ignores unknown ids', () => {
		expect(family.closureOf(['other', 'missing', 'c']).slice(0, 2)).toEqual(['other', 'c']);
	});

	it('detaches the branches of what goes, and nothing that goes with it', () => {
		expect(family.detachedBy(family.closureOf(['a']))).toEqual(['e']);
		expect(family.detachedBy(family.closureOf(['a', 'e']))).toEqual([]);
	});
});

describe('links cross no origin', () => {
	// Yours: mine → mine2 (one conversation). Import 1 brought i1 → i2, plus i3 and d1 that name
	// your sessions as parent; import 2 brought j1, which names i2.
	const mixed = new SessionFamily([
		link('mine'),
		link('mine2', 'mine', 'compression'),
		link('i1', null, null, 'import-1'),
		link('i2', 'i1', 'compression', 'import-1'),
		link('i3', 'mine2', 'compression', 'import-1'),
		link('d1', 'mine', 'delegate', 'import-1'),
		link('j1', 'i2', 'compression', 'import-2')
	]);

	it('an imported session never takes one of yours, and yours never takes an imported one', () => {
		expect(mixed.closureOf(['i3'])).toEqual(['i3']);
		expect(mixed.closureOf(['mine']).sort()).toEqual(['mine', 'mine2']);
		expect(mixed.closureOf(['mine2']).sort()).toEqual(['mine', 'mine2']);
	});

	it('sessions of one import go together; those of another import stay', () => {
		expect(mixed.closureOf(['i2']).sort()).toEqual(['i1', 'i2']);
		expect(mixed.closureOf(['j1'])).toEqual(['j1']);
	});

	it('what stays is detached from what goes', () => {
		expect(mixed.detachedBy(mixed.closureOf(['mine'])).sort()).toEqual(['d1', 'i3']);
	});

	it('a sweep takes your lineage without the imported sessions hanging off it', () => {
		expect(selectWholeGroups(mixed, ['mine'], () => true).sort()).toEqual(['mine', 'mine2']);
	});
});

describe('what a sweep may take', () => {
	it('takes a lineage only when every link qualifies', () => {
		const qualifiesExcept = (...refused: string[]) => (row: SessionLink) => !refused.includes(row.id);
		expect(selectWholeGroups(family, ['a'], qualifiesExcept()).sort()).toEqual(['a', 'b', 'c', 'd']);
		// The live head of the lineage is busy (or not ended): none of the lineage goes.
		expect(selectWholeGroups(family, ['a', 'b'], qualifiesExcept('c'))).toEqual([]);
		// A sub-agent session that fails keeps the whole lineage, since it would go with it.
		expect(selectWholeGroups(family, ['a'], qualifiesExcept('d'))).toEqual([]);
	});

	it('still takes a qualifying sub-agent session whose parent stays', () => {
		expect(selectWholeGroups(family, ['c', 'd'], (row) => row.id === 'd')).toEqual(['d']);
	});
});
