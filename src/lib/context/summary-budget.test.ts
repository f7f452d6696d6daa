import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { CUT_NOTE, cutToBudget, freesEnough, SUMMARY_MAX_TOKENS, SUMMARY_MIN_TOKENS, summaryBudget } from './summary-budget';
import { formatSummary, emptySections, parseSummary } from './summary-template';

const count = (text: string) => o200k.countTokens(text);

describe('summaryBudget', () => {
	it('is a fifth of the replaced tokens, bounded below and above', () => {
		expect(summaryBudget(10_000)).toBe(2_000);
		expect(summaryBudget(3_623)).toBe(725);
		expect(summaryBudget(500)).toBe(SUMMARY_MIN_TOKENS);
		expect(summaryBudget(1_000_000)).toBe(SUMMARY_MAX_TOKENS);
	});
});

describe('freesEnough', () => {
	it('asks a compaction to free at least a tenth of what it replaced', () => {
		// The reported case: 6 messages replaced, 132 of 3,623 tokens freed.
		expect(freesEnough(3_400, 132)).toBe(false);
		expect(freesEnough(3_400, 340)).toBe(true);
		expect(freesEnough(3_400, 0)).toBe(false);
		expect(freesEnough(0, 0)).toBe(false);
	});
});

describe('cutToBudget', () => {
	const sections = emptySections();
	for (let i = 0; i < 40; i++) {
		sections.Goal.push(`Goal item ${i} about the invoice exporter and its rounding rules`);
		sections.Done.push(`Done item ${i}: wrote src/export/part${i}.ts with tests`);
	}
	const text = formatSummary(sections);

	it('leaves a summary within its budget unchanged', () => {
		expect(cutToBudget(text, count(text), count)).toBe(text);
	});

	it('keeps the leading sections that fit, whole, and says that the rest was left out', () => {
		const goalOnly = formatSummary({ ...emptySections(), Goal: sections.Goal }).split('\n\n## Constraints')[0];
		const cut = cutToBudget(text, count(goalOnly) + 40, count);
		expect(count(cut)).toBeLessThanOrEqual(count(goalOnly) + 40);
		expect(cut.endsWith(CUT_NOTE)).toBe(true);
		expect(parseSummary(cut).Goal).toEqual(sections.Goal);
		expect(parseSummary(cut).Done).toEqual([]);
	});

	it('cuts inside the first section at a word when even that does not fit', () => {
		const cut = cutToBudget(text, 80, count);
		expect(count(cut)).toBeLessThanOrEqual(80);
		expect(cut.startsWith('## Goal\n- Goal item 0')).toBe(true);
		expect(cut.endsWith(CUT_NOTE)).toBe(true);
		const oneLine = `## Goal\n- ${'a very long summary '.repeat(400)}`;
		const words = cutToBudget(oneLine, 100, count);
		expect(count(words)).toBeLessThanOrEqual(100);
		expect(count(words)).toBeGreaterThan(80);
	});
});
