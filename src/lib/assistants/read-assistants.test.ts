import { describe, expect, it } from 'vitest';
import { ASSISTANT_LIMITS } from '../db/schema';
import { AssistantsFileError, parseAssistantsFile, writeAssistantsFile } from './assistants-file';
import { readAssistants } from './read-assistants';

const good = {
	id: 'a1',
	name: 'Reviewer',
	provider: 'p1',
	model: 'gpt-x',
	starters: ['Review this diff'],
	created_at: 1,
	updated_at: 2,
	chat_settings: { system_prompt: 'You review code.', temperature: 0.2 }
};

describe('assistants from a file or a server', () => {
	it('keep what fits, as the app stores it', () => {
		expect(readAssistants([good])).toEqual({ assistants: [good], dropped: 0, droppedFields: 0, firstReason: '' });
		// Written by hand: only an id and a name; no settings is none.
		expect(readAssistants([{ id: 'a2', name: 'Plain', chat_settings: {} }]).assistants).toEqual([{ id: 'a2', name: 'Plain', provider: '', model: '', starters: [], created_at: 0, updated_at: 0 }]);
	});

	it('drop and count each that does not: wrong types, giant strings, settings out of bounds, an id twice', () => {
		const bad = [
			'not an object',
			null,
			[good],
			{ ...good, id: 'n1', name: 42 },
			{ ...good, id: 'n2', name: 'x'.repeat(ASSISTANT_LIMITS.nameChars + 1) },
			{ ...good, id: 'n3', name: '   ' },
			{ ...good, id: 'n4', name: 'two\nlines' },
			{ ...good, id: 'n5', chat_settings: { system_prompt: 'x'.repeat(100_001) } },
			{ ...good, id: 'n6', chat_settings: { temperature: 7 } },
			{ ...good, id: 'n7', chat_settings: { temperature: '0.2' } },
			{ ...good, id: 'n8', chat_settings: 'be nice' },
			{ ...good, id: 'n9', starters: 'Hi' },
			{ ...good, id: 'n10', starters: Array.from({ length: ASSISTANT_LIMITS.starters + 1 }, () => 'Hi') },
			{ ...good, id: 'n11', starters: ['x'.repeat(ASSISTANT_LIMITS.starterChars + 1)] },
			{ ...good, id: 'n12', starters: [''] },
			{ ...good, id: 'n13', model: 'x'.repeat(ASSISTANT_LIMITS.modelChars + 1) },
			{ ...good, id: 'n14', created_at: Number.POSITIVE_INFINITY },
			{ ...good, id: '' },
			{ ...good, id: 'bell\u0007' },
			{ ...good, name: 'Same id again' }
		];
		const read = readAssistants([good, ...bad]);
		expect(read.assistants).toEqual([good]);
		expect(read.dropped).toBe(bad.length);
		expect(read.firstReason).toBe('assistant 2: it is not an assistant (an object)');
	});

	it('say which field of an assistant did not fit, never its value', () => {
		const read = readAssistants([{ ...good, chat_settings: { temperature: 9 } }, { ...good, id: 'b', name: 'y'.repeat(5000) }]);
		expect(read.firstReason).toBe('assistant 1: its “chat_settings.temperature” is not a value within the bounds of Chat settings');
		expect(read.firstReason).not.toContain('yyy');
	});

	it('take nothing of an object’s prototype, and count fields they do not know', () => {
		const hostile = JSON.parse('{"id":"a9","name":"x","__proto__":{"polluted":1},"extra":true,"chat_settings":{"temperature":1,"colour":"red"}}');
		const read = readAssistants([hostile]);
		expect(read.assistants).toEqual([{ id: 'a9', name: 'x', provider: '', model: '', starters: [], created_at: 0, updated_at: 0, chat_settings: { temperature: 1 } }]);
		expect(read.droppedFields).toBe(3);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('stop at the most a profile keeps, and count a list that is not one as dropped', () => {
		const many = Array.from({ length: ASSISTANT_LIMITS.assistants + 5 }, (_, i) => ({ id: `a${i}`, name: `A ${i}` }));
		const read = readAssistants(many);
		expect(read.assistants).toHaveLength(ASSISTANT_LIMITS.assistants);
		expect(read.dropped).toBe(5);
		expect(read.firstReason).toContain('at most 500 assistants');
		expect(readAssistants({ 0: good })).toMatchObject({ assistants: [], dropped: 1 });
	});
});

describe('a file of assistants', () => {
	it('reads back what was written', () => {
		expect(parseAssistantsFile(writeAssistantsFile([good], 5)).assistants).toEqual([good]);
	});

	it('that is not one is refused whole, with the reason', () => {
		expect(() => parseAssistantsFile('{')).toThrow(AssistantsFileError);
		expect(() => parseAssistantsFile('{')).toThrow('not JSON');
		expect(() => parseAssistantsFile(JSON.stringify({ format: 'palimpsest-sessions', version: 1, assistants: [] }))).toThrow('not a file of assistants');
		expect(() => parseAssistantsFile(JSON.stringify({ format: 'palimpsest-assistants', version: 2, assistants: [] }))).toThrow('newer Palimpsest');
		expect(() => parseAssistantsFile(JSON.stringify({ format: 'palimpsest-assistants', version: '1', assistants: [] }))).toThrow('no version');
		expect(() => parseAssistantsFile(' '.repeat(20 * 1024 * 1024 + 1))).toThrow('at most 20 MB');
	});
});
