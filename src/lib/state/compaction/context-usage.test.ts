import { describe, expect, it } from 'vitest';
import { anchorParts } from '../../context/anchor-estimate';
import { composeEstimate } from '../../context/count-tokens';
import type { CompactionMarker } from '../../db/schema';
import { describeCompaction, describeFolded, describeTotal, describeUsage, sumFacts, usageParts, type ContextUsage } from './context-usage';

const MARKER: CompactionMarker = { id: 'c1', kind: 'summarize', reason: 'manual', before_tokens: 9000, after_tokens: 3000, messages_removed: 12, at: 1 };

function usage(ratio?: number, counts = { messages: 120, rows: 4, tools: 0, injected: 0 }): ContextUsage {
	const counted = composeEstimate({ messages: counts.messages, messageCount: counts.rows, systemPrompt: 40, hasSystemPrompt: true, toolSchemas: counts.tools, injected: counts.injected, reservedOutput: 3_200 });
	// As the session's estimate gives them: on the provider's scale when it reported a count.
	const parts = anchorParts(counted, ratio);
	return { model: 'offline-mini', total: parts.total, windowTokens: 32_000, threshold: 0.8, parts, rows: counts.rows, ratio };
}

const added = (u: ContextUsage) => usageParts(u).reduce((sum, part) => sum + part.tokens, 0);

describe('context usage in words', () => {
	it('lists parts that add up to the total the meter shows', () => {
		const u = usage();
		expect(added(u)).toBe(u.total);
		expect(usageParts(u).map((part) => part.label)).toEqual(['System prompt and tools', 'Messages (4)', 'Plugin context', 'Kept for the answer']);
	});

	it('adds up to the total also once the provider’s own count scaled it, whatever the ratio', () => {
		for (const ratio of [0.5, 0.731, 0.996, 1, 1.004, 1.1, 1.337, 2]) {
			for (const counts of [
				{ messages: 14_907, rows: 9, tools: 0, injected: 0 },
				{ messages: 3, rows: 1, tools: 517, injected: 41 },
				{ messages: 0, rows: 0, tools: 0, injected: 0 }
			]) {
				const u = usage(ratio, counts);
				expect(added(u), `ratio ${ratio}, ${counts.messages} tokens of messages`).toBe(u.total);
			}
		}
	});

	it('names the fixed part that explains an empty chat’s count', () => {
		const empty = usage(undefined, { messages: 0, rows: 0, tools: 0, injected: 0 });
		const [fixed, messages, , answer] = usageParts(empty);
		// The system prompt and its message overhead; nothing for messages not yet written.
		expect(fixed).toEqual({ label: 'System prompt and tools', tokens: 44 });
		expect(messages).toEqual({ label: 'Messages (0)', tokens: 0 });
		expect(fixed.tokens + answer.tokens).toBe(empty.total);
	});

	it('gives /usage the same total, window and threshold as the meter', () => {
		const text = describeUsage(usage(), { stored: 6, compactions: 1 });
		expect(text).toContain(`Estimated context: ${describeTotal(usage())}`);
		expect(text).toContain('3,380 of 32,000 tokens (11%; compaction starts at 80%)');
		expect(text).toContain('Messages: 6 stored, 4 in context');
		expect(text).toContain('  Kept for the answer: 3,200');
		expect(text).not.toContain('provider');
	});

	it("gives /usage and the compactions list the summaries' fact checks", () => {
		const lost = (text: string, added?: true) => ({ class: 'path' as const, text, seq: 3, ...(added ? { added } : {}) });
		const checked: CompactionMarker = { ...MARKER, facts: { total: 23, kept: 18, lost_count: 5, lost: [lost('a.ts', true), lost('b.ts', true), lost('c.ts'), lost('d.ts'), lost('e.ts')] } };
		expect(describeCompaction(checked)).toContain('kept 18 of 23 facts, 2 added');
		expect(describeCompaction(MARKER)).not.toContain('facts');
		const facts = sumFacts([checked, MARKER, { ...MARKER, facts: { total: 4, kept: 4, lost_count: 0, lost: [] } }]);
		expect(facts).toEqual({ total: 27, held: 24, lost: 3 });
		expect(describeUsage(usage(), { stored: 6, compactions: 3, facts })).toContain('Facts in compacted messages: 24 of 27 held by the summaries, 3 lost');
		expect(describeUsage(usage(), { stored: 6, compactions: 1, facts: sumFacts([MARKER]) })).not.toContain('Facts');
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
