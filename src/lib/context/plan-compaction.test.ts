import { describe, expect, it } from 'vitest';
import type { CountedRow } from './context-rows';
import { findTailStart, planMicroSummarize, planProviderPrune, planPrune, planSummarize } from './plan-compaction';

let seq = 0;
const user = (tokens: number, content = 'question'): CountedRow => ({ seq: seq++, role: 'user', kind: 'message', content, tokens });
const assistant = (tokens: number, content = 'answer'): CountedRow => ({ seq: seq++, role: 'assistant', kind: 'message', content, tokens });
const call = (tokens: number, ...ids: string[]): CountedRow => ({
	seq: seq++,
	role: 'assistant',
	kind: 'message',
	content: '',
	tokens,
	tool_calls: ids.map((id) => ({ id, name: 'read_file', arguments: '{"path":"a.ts"}' }))
});
const result = (tokens: number, id: string, content = 'x'.repeat(tokens)): CountedRow => ({ seq: seq++, role: 'tool', kind: 'message', content, tokens, tool_call_id: id });
const summary = (tokens: number, content = '## Goal\n- earlier goal'): CountedRow => ({ seq: seq - 0.5, role: 'user', kind: 'summary', content, tokens });

describe('the kept tail', () => {
	it('fits the budget from the end', () => {
		seq = 0;
		const rows = [user(100), assistant(100), user(100), assistant(100), user(10), assistant(10)];
		expect(findTailStart(rows, 300)).toBe(2);
		expect(findTailStart(rows, 220)).toBe(2);
	});

	it('always holds the last user and the last assistant message, even over budget', () => {
		seq = 0;
		const rows = [user(100), assistant(100), user(5000), assistant(5000)];
		expect(findTailStart(rows, 10)).toBe(2);
		// The pending user message after the last answer: the answer before it stays too, with its question.
		const pending = [user(100), assistant(100), user(100), assistant(3000), user(3000)];
		expect(findTailStart(pending, 10)).toBe(2);
	});

	it('starts at a user message: an answer is never kept without its question', () => {
		seq = 0;
		// 219 tokens reach back into the second answer only: its question comes with it.
		const rows = [user(100), assistant(100), user(100), assistant(100), user(10), assistant(10)];
		expect(findTailStart(rows, 219)).toBe(2);
		// A budget ending inside a tool round goes back to the question that started it.
		const tools = [user(10), assistant(10), user(10), call(10, 'a'), result(30, 'a'), assistant(20), user(10), assistant(10)];
		for (const budget of [40, 60, 70, 80]) expect(tools[findTailStart(tools, budget)]).toMatchObject({ role: 'user', kind: 'message' });
		// Only an answer whose question an earlier summary holds may start the tail.
		seq = 1;
		const afterSummary = [summary(40), assistant(100), user(10), assistant(10)];
		expect(findTailStart(afterSummary, 200)).toBe(1);
	});

	it('never separates a question from its answer in what a summary replaces', () => {
		seq = 0;
		const rows = [user(100), assistant(300), user(100), assistant(300), user(50), assistant(50)];
		for (const tailTokens of [0, 120, 400, 450, 700]) {
			const plan = planSummarize(rows, { tailTokens })!;
			const kept = rows.find((row) => row.seq === plan.firstKeptSeq);
			expect(kept, `tail of ${tailTokens} tokens`).toMatchObject({ role: 'user', kind: 'message' });
			expect(rows.filter((row) => plan.removed.includes(row.seq)).at(-1)?.role).toBe('assistant');
		}
	});

	it('never separates a tool call from its results', () => {
		seq = 0;
		const rows = [user(10), assistant(10), user(10), call(10, 'a', 'b'), result(500, 'a'), result(20, 'b'), assistant(20)];
		// 40 tokens reach only into the results; the tail moves back to the call.
		expect(findTailStart(rows, 40)).toBe(2);
		const noUser = [user(10), call(10, 'a'), result(500, 'a'), result(20, 'a'), assistant(20)];
		expect(findTailStart(noUser, 40)).toBe(0);
	});
});

describe('planSummarize', () => {
	it('summarises the middle and keeps the tail', () => {
		seq = 0;
		const rows = [user(100), assistant(300), user(100), assistant(300), user(50), assistant(50)];
		const plan = planSummarize(rows, { tailTokens: 120 })!;
		expect(plan).toMatchObject({ kind: 'summarize', removed: [0, 1, 2, 3], summarized: [0, 1, 2, 3], previousSummary: null, firstKeptSeq: 4, removedTokens: 800 });
	});

	it('updates an earlier summary instead of summarising it again', () => {
		seq = 1;
		const rows = [summary(40, '## Goal\n- ship it'), user(100), assistant(300), user(50), assistant(50)];
		const plan = planSummarize(rows, { tailTokens: 100 })!;
		expect(plan.removed).toEqual([0.5, 1, 2]);
		expect(plan.summarized).toEqual([1, 2]);
		expect(plan.previousSummary).toBe('## Goal\n- ship it');
	});

	it('keeps a summary the user edited as it is, ahead of the new one, and updates only the others', () => {
		seq = 1;
		const edited: CountedRow = { ...summary(40, 'My own notes: rivers, then harbours.'), seq: 0.25, edited: true };
		const rows = [edited, summary(30, '## Goal\n- ship it'), user(100), assistant(300), user(50), assistant(50)];
		const plan = planSummarize(rows, { tailTokens: 100 })!;
		expect(plan.removed).toEqual([0.5, 1, 2]);
		expect(plan.previousSummary).toBe('## Goal\n- ship it');
		expect(plan.removedTokens).toBe(430);
		expect(plan.firstKeptSeq).toBe(3);
		// Also when the kept tail shrinks to the last message, and when summaries are rewritten.
		expect(planSummarize(rows, { tailTokens: 0, minimalTail: true })!.removed).not.toContain(edited.seq);
		expect(planSummarize(rows, { tailTokens: 0, rewriteSummaries: true })!.removed).not.toContain(edited.seq);
		expect(planMicroSummarize(rows, { tailTokens: 100 })!.removed).not.toContain(edited.seq);
		// With nothing but the edited summary before the tail, there is nothing to compact.
		expect(planSummarize([edited, user(10), assistant(10)], { tailTokens: 0, rewriteSummaries: true })).toBeNull();
	});

	it('has nothing to do when everything fits in the tail, or only a summary would go', () => {
		seq = 0;
		expect(planSummarize([user(10), assistant(10)], { tailTokens: 1000 })).toBeNull();
		seq = 1;
		expect(planSummarize([summary(40), user(10), assistant(10)], { tailTokens: 5 })).toBeNull();
		expect(planSummarize([], { tailTokens: 5 })).toBeNull();
	});
});

describe('planMicroSummarize', () => {
	it('folds the oldest exchange after the summary, tool rounds included', () => {
		seq = 1;
		const rows = [summary(40), user(10), call(10, 'a'), result(100, 'a'), assistant(10), user(10), assistant(10), user(10), assistant(10)];
		const plan = planMicroSummarize(rows, { tailTokens: 30 })!;
		expect(plan.kind).toBe('micro_summarize');
		expect(plan.removed).toEqual([0.5, 1, 2, 3, 4]);
		expect(plan.summarized).toEqual([1, 2, 3, 4]);
		expect(plan.firstKeptSeq).toBe(5);
	});

	it('leaves an exchange that reaches into the tail', () => {
		seq = 0;
		expect(planMicroSummarize([user(10), assistant(10)], { tailTokens: 5 })).toBeNull();
	});
});

describe('planPrune', () => {
	it('stubs old, large tool outputs and keeps their call ids; the tail and small outputs stay', () => {
		seq = 0;
		const rows = [user(10), call(10, 'a', 'b'), result(2000, 'a'), result(20, 'b'), assistant(10), user(10), call(10, 'c'), result(900, 'c'), assistant(10)];
		const plan = planPrune(rows, { tailTokens: 950 })!;
		expect(plan.stubs.map((s) => [s.seq, s.tool_call_id])).toEqual([[2, 'a']]);
		expect(plan.stubs[0].content).toMatch(/^\[Tool output pruned: 2,000 tokens of output from read_file/);
		expect(plan.removedTokens).toBe(2000);
	});

	it('never prunes a stub again', () => {
		seq = 0;
		const first = [user(10), call(10, 'a'), result(2000, 'a'), assistant(10), user(10), assistant(10)];
		const stub = planPrune(first, { tailTokens: 20 })!.stubs[0];
		seq = 0;
		const again = [user(10), call(10, 'a'), result(100, 'a', stub.content), assistant(10), user(10), assistant(10)];
		expect(planPrune(again, { tailTokens: 20 })).toBeNull();
	});

	it('mirrors a provider that cleared its oldest tool results', () => {
		seq = 0;
		const rows = [user(10), call(10, 'a', 'b', 'c'), result(100, 'a'), result(100, 'b'), result(100, 'c'), assistant(10)];
		expect(planProviderPrune(rows, 2)!.stubs.map((s) => s.tool_call_id)).toEqual(['a', 'b']);
		expect(planProviderPrune(rows, 0)).toBeNull();
	});
});

describe('messages kept in context', () => {
	const pin = (row: CountedRow): CountedRow => ({ ...row, pinned: true });

	it('stay out of a summary, which goes right before the first of them, ahead of the tail', () => {
		seq = 0;
		const rows = [user(100), pin(assistant(300, 'the plan')), user(100), pin(user(300, 'my rules')), assistant(300), user(50), assistant(50)];
		const plan = planSummarize(rows, { tailTokens: 120 })!;
		expect(plan.removed).toEqual([0, 2, 4]);
		expect(plan.summarized).toEqual([0, 2, 4]);
		expect(plan.firstKeptSeq).toBe(1);
		expect(plan.removedTokens).toBe(500);
	});

	it('stay through every way a summary is planned: a minimal tail, rewritten summaries, an update of an earlier summary', () => {
		seq = 1;
		const rows = [summary(40, '## Goal\n- ship it'), user(100), pin(user(200, 'keep me')), assistant(300), user(50), assistant(50)];
		for (const options of [{ tailTokens: 0 }, { tailTokens: 0, minimalTail: true }, { tailTokens: 0, rewriteSummaries: true }, { tailTokens: 100 }]) {
			const plan = planSummarize(rows, options)!;
			expect(plan.removed, JSON.stringify(options)).not.toContain(2);
			expect(plan.removed).toContain(0.5);
			expect(plan.previousSummary).toBe('## Goal\n- ship it');
			expect(plan.firstKeptSeq).toBe(2);
		}
	});

	it('keep an answer with its tool results, while the rest of its round is folded', () => {
		seq = 0;
		const rows = [user(10), pin(call(10, 'a', 'b')), result(500, 'a'), result(20, 'b'), assistant(20), user(10), assistant(10)];
		const plan = planSummarize(rows, { tailTokens: 0 })!;
		expect(plan.removed).toEqual([0, 4]);
		expect(plan.firstKeptSeq).toBe(1);
		// Pruning sends the pinned answer's results as they are.
		expect(planPrune(rows, { tailTokens: 0 })).toBeNull();
		// A pin means nothing on a tool result or a summary: only your messages and the answers are kept.
		seq = 0;
		const onResult = [user(10), call(10, 'a'), pin(result(500, 'a')), assistant(20), user(10), assistant(10)];
		expect(planSummarize(onResult, { tailTokens: 0 })!.removed).toEqual([0, 1, 2, 3]);
		seq = 1;
		const onSummary = [pin(summary(40)), user(100), assistant(100), user(10), assistant(10)];
		expect(planSummarize(onSummary, { tailTokens: 0 })!.removed).toEqual([0.5, 1, 2]);
	});

	it('leave nothing to compact when everything before the tail is kept', () => {
		seq = 0;
		expect(planSummarize([pin(user(100)), pin(assistant(300)), user(50), assistant(50)], { tailTokens: 0 })).toBeNull();
	});

	it('are passed over by micro-compaction, which folds the next exchange and places its summary before them', () => {
		seq = 1;
		const rows = [summary(40), pin(user(10, 'keep me')), assistant(10), user(10), assistant(10), user(10), assistant(10)];
		const plan = planMicroSummarize(rows, { tailTokens: 20 })!;
		expect(plan.removed).toEqual([0.5, 2]);
		expect(plan.firstKeptSeq).toBe(1);
		seq = 1;
		const wholeExchange = [summary(40), pin(user(10)), pin(assistant(10)), user(10), assistant(10), user(10), assistant(10)];
		const next = planMicroSummarize(wholeExchange, { tailTokens: 20 })!;
		expect(next.removed).toEqual([0.5, 3, 4]);
		expect(next.firstKeptSeq).toBe(1);
	});

	it('keep their images when older images stop being sent', () => {
		seq = 0;
		const photo = (row: CountedRow): CountedRow => ({ ...row, attached: [{ type: 'image', name: 'photo.png', width: 10, height: 10 }] });
		const rows = [photo(user(10)), assistant(10), pin(photo(user(10))), assistant(10), photo(user(10)), assistant(10)];
		expect(planPrune(rows, { tailTokens: 0, images: 'only' })!.images.map((image) => image.seq)).toEqual([0]);
	});
});
