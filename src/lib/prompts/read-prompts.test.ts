import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_TEXT_CHARS, MAX_PROMPTS } from '../db/schema';
import { readPrompts } from './read-prompts';

const good = { id: 'p1', name: 'translate', text: 'Translate {{text}}', created_at: 1, updated_at: 2 };

describe('prompts from an imported file', () => {
	it('keep what fits, as the app stores it', () => {
		expect(readPrompts([good])).toEqual({ prompts: [good], dropped: 0, droppedFields: 0 });
		expect(readPrompts(undefined)).toEqual({ prompts: [], dropped: 0, droppedFields: 0 });
		// Times are optional: a prompt written by hand has none.
		expect(readPrompts([{ id: 'p2', name: 'brief', text: 'Be brief.' }]).prompts).toEqual([{ id: 'p2', name: 'brief', text: 'Be brief.', created_at: 0, updated_at: 0 }]);
	});

	it('drop and count each that does not: wrong types, bounds, names no prompt may have, an id twice', () => {
		const bad = [
			'not an object',
			null,
			[good],
			{ ...good, id: 'n1', name: 'Translate' },
			{ ...good, id: 'n2', name: 'a'.repeat(65) },
			{ ...good, id: 'n3', name: 'help' },
			{ ...good, id: 'n4', text: 'x'.repeat(MAX_PROMPT_TEXT_CHARS + 1) },
			{ ...good, id: 'n5', text: 42 },
			{ ...good, id: '' },
			{ ...good, id: 'bell\u0007' },
			{ ...good, id: 'n6', created_at: Number.POSITIVE_INFINITY },
			{ ...good, id: 'n7', created_at: '2024-01-01' },
			{ ...good, name: 'again' }
		];
		const read = readPrompts([good, ...bad]);
		expect(read.prompts).toEqual([good]);
		expect(read.dropped).toBe(bad.length);
	});

	it('take nothing of an object’s prototype, and count fields they do not know', () => {
		const hostile = JSON.parse('{"id":"p9","name":"x","text":"y","__proto__":{"polluted":1},"extra":true}');
		const read = readPrompts([hostile]);
		expect(read.prompts).toEqual([{ id: 'p9', name: 'x', text: 'y', created_at: 0, updated_at: 0 }]);
		expect(read.droppedFields).toBe(2);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('stop at MAX_PROMPTS, and count a list that is not one as dropped', () => {
		const many = Array.from({ length: MAX_PROMPTS + 5 }, (_, i) => ({ id: `p${i}`, name: `p${i}`, text: '' }));
		const read = readPrompts(many);
		expect(read.prompts).toHaveLength(MAX_PROMPTS);
		expect(read.dropped).toBe(5);
		expect(readPrompts({ 0: good })).toEqual({ prompts: [], dropped: 1, droppedFields: 0 });
	});
});
