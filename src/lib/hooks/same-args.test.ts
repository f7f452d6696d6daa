// Tool arguments are the same call when they are the same JSON, whatever order their keys are in.
import { describe, expect, it } from 'vitest';
import { sameArgs } from './same-args';

describe('sameArgs', () => {
	it('is the same call for the same values, keys in any order at any depth', () => {
		expect(sameArgs({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(true);
	});

	it('is another call when a value, a key or the order of a list differs', () => {
		expect(sameArgs({ message: 'hello' }, { message: 'REWRITTEN' })).toBe(false);
		expect(sameArgs({ message: 'hello' }, { message: 'hello', extra: true })).toBe(false);
		expect(sameArgs({ list: [1, 2] }, { list: [2, 1] })).toBe(false);
		expect(sameArgs({ n: 1 }, { n: '1' })).toBe(false);
	});

	it('counts what a tool would receive: a field left undefined is no field', () => {
		expect(sameArgs({ a: 1, b: undefined }, { a: 1 })).toBe(true);
	});

	it('treats arguments that cannot be written as JSON as changed', () => {
		const cyclic: Record<string, unknown> = { a: 1 };
		cyclic.self = cyclic;
		expect(sameArgs(cyclic, { a: 1 })).toBe(false);
		expect(sameArgs({ n: 1n }, { n: 1n })).toBe(false);
	});
});
