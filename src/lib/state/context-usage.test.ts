import { describe, expect, it } from 'vitest';
import { composeEstimate } from '../context/count-tokens';
import { describeFolded, describeTotal, describeUsage, usageParts, type ContextUsage } from './context-usage';

function usage(ratio?: number): ContextUsage {
	const parts = composeEstimate({ messages: 120, messageCount: 4, systemPrompt: 40, hasSystemPrompt: true, toolSchemas: 0, injected: 0, reservedOutput: 3_200 });
	return { model: 'offline-mini', total: parts.total, windowTokens: 32_000, threshold: 0.8, parts, rows: 4, ratio };
}

describe('context usage in words', () => {
	it('lists parts that add up to the total the meter shows', () => {
		const u = usage();
		expect(usageParts(u).reduce((sum, part) => sum + part.tokens, 0)).toBe(u.total);
		expect(usageParts(u).map((part) => part.label)).toEqual(['System prompt', 'Tools', 'Messages (4)', 'Plugin context', 'Kept for the answer']);
	});

	it('gives /usage the same total, window and threshold as the meter', () => {
		const text = describeUsage(usage(), { stored: 6, compactions: 1 });
		expect(text).toContain(`Estimated context: ${describeTotal(usage())}`);
		expect(text).toContain('3,380 of 32,000 tokens (11%; compaction starts at 80%)');
		expect(text).toContain('Messages: 6 stored, 4 in context');
		expect(text).toContain('  Kept for the answer: 3,200');
		expect(text).not.toContain('provider');
	});

	it("says when the provider's own count adjusted the estimate", () => {
		expect(describeUsage(usage(1.1), { stored: 4, compactions: 0 })).toContain("Adjusted to the provider's own count: ×1.10");
	});

	it('says "folded" for what a compaction took out, in one wording', () => {
		expect(describeFolded(1)).toBe('1 message folded');
		expect(describeFolded(1200)).toBe('1,200 messages folded');
		expect(describeFolded(null)).toBe('');
	});
});
