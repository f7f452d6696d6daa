// What OpenAI's `/responses/compact` returns, read in every shape the API documents for the
// user messages it keeps: typed `message` items, or role/content items, their content a string
// or a list of input_text parts. None of them makes the app fall back to its own summary.
import { describe, expect, it } from 'vitest';
import { OPAQUE_SUMMARY } from './native-family';
import { readCompaction } from './responses-compact';

const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'enc_1' };
const reply = (...kept: unknown[]) => ({ id: 'resp_compact_1', object: 'response.compaction', output: [...kept, compaction] });

describe('reading /responses/compact', () => {
	const shapes: Array<[string, unknown]> = [
		['a typed message with input_text parts', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan a trip to Kyoto.' }] }],
		['a typed message with a string', { type: 'message', role: 'user', content: 'Plan a trip to Kyoto.' }],
		['a role/content item with a string', { role: 'user', content: 'Plan a trip to Kyoto.' }],
		['a role/content item with input_text parts', { role: 'user', content: [{ type: 'input_text', text: 'Plan a trip to ' }, { type: 'input_text', text: 'Kyoto.' }] }]
	];

	for (const [shape, item] of shapes) {
		it(`keeps a user message given as ${shape}, and the window exactly as returned`, () => {
			const value = reply(item);
			const [summary] = readCompaction(value, 'gpt-5.6');
			expect(summary).toMatchObject({ role: 'user', summary: true, native: { api: 'openai-responses', model: 'gpt-5.6', opaque: true } });
			expect(summary.native!.items).toEqual(value.output);
			expect(summary.content).toBe(`${OPAQUE_SUMMARY}\n\nThe messages it kept:\n- Plan a trip to Kyoto.`);
		});
	}

	it('reads both shapes in one window, and lists only what the user said', () => {
		const value = reply(
			{ role: 'user', content: 'First question.' },
			{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Second question.' }] },
			{ role: 'assistant', content: 'Not a user message.' }
		);
		const [summary] = readCompaction(value, 'gpt-5.6');
		expect(summary.content).toBe(`${OPAQUE_SUMMARY}\n\nThe messages it kept:\n- First question.\n- Second question.`);
		expect(summary.native!.items).toHaveLength(4);
	});

	it('still refuses a window without a compaction item, or items of no known shape', () => {
		expect(() => readCompaction({ output: [{ role: 'user', content: 'Only this.' }] }, 'gpt-5.6')).toThrow('no compaction item');
		expect(() => readCompaction({ output: [{ content: 'Who said this?' }, compaction] }, 'gpt-5.6')).toThrow();
		expect(() => readCompaction({ output: [{ type: 7, role: 'user' }, compaction] }, 'gpt-5.6')).toThrow();
	});
});
