import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { ContextRow } from './context-rows';
import { extractiveSummary } from './extractive-summary';
import { parseSummary, SUMMARY_SECTIONS } from './summary-template';

const row = (role: ContextRow['role'], content: string, extra: Partial<ContextRow> = {}): ContextRow => ({ seq: 0, role, kind: 'message', content, ...extra });

const conversation: ContextRow[] = [
	row('user', 'I want to port the billing service to TypeScript. It must keep the public API unchanged. Never touch src/legacy/ledger.py.'),
	row('assistant', "Let's go with Vitest for the tests. I added src/billing/invoice.ts and fixed the rounding bug."),
	row('assistant', '', { tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/billing/tax.ts"}' }] }),
	row('tool', 'export const RATE = 0.2; // see https://example.com/tax-rules', { tool_call_id: 'c1' }),
	row('user', 'Should refunds use the same rounding? Next, move the CSV export to `exportCsv`.')
];

describe('extractiveSummary', () => {
	it('writes every section of the template, in order', () => {
		const text = extractiveSummary(conversation, null);
		const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
		expect(headings).toEqual([...SUMMARY_SECTIONS]);
	});

	it('keeps the goal, constraints, decisions, work done, references and open questions', () => {
		const sections = parseSummary(extractiveSummary(conversation, null, 'the rounding rules'));
		expect(sections.Goal[0]).toMatch(/port the billing service to TypeScript/);
		expect(sections.Goal).toContain('Focus: the rounding rules');
		expect(sections.Constraints.join('\n')).toMatch(/must keep the public API unchanged/);
		expect(sections.Constraints.join('\n')).toMatch(/Never touch src\/legacy\/ledger\.py/);
		expect(sections.Decisions.join('\n')).toMatch(/Vitest/);
		expect(sections.Done.join('\n')).toMatch(/fixed the rounding bug/);
		expect(sections.Done.join('\n')).toMatch(/Called read_file/);
		expect(sections['In progress'][0]).toMatch(/move the CSV export/);
		expect(sections['Files and references']).toEqual(
			expect.arrayContaining(['src/legacy/ledger.py', 'src/billing/invoice.ts', 'https://example.com/tax-rules', '`exportCsv`'])
		);
		expect(sections['Open questions']).toEqual(['Should refunds use the same rounding?']);
	});

	it('updates an earlier summary: what it said stays, what is new is added', () => {
		const earlier = extractiveSummary([row('user', 'Build a CLI for invoices. Always use UTC.')], null);
		const updated = parseSummary(extractiveSummary(conversation, earlier));
		expect(updated.Goal[0]).toMatch(/Build a CLI for invoices/);
		expect(updated.Constraints).toEqual(expect.arrayContaining(['Always use UTC.', expect.stringMatching(/public API unchanged/)]));
	});

	it('is deterministic and stays small however long the conversation is', () => {
		const long: ContextRow[] = [];
		for (let i = 0; i < 2000; i++) {
			long.push(row('user', `Question ${i}: should file${i}.ts use the new parser? We must not break build ${i}.`));
			long.push(row('assistant', `Answer ${i}: I updated file${i}.ts. ${'Lorem ipsum dolor sit amet. '.repeat(40)}`));
		}
		const chars = long.reduce((sum, r) => sum + r.content.length, 0);
		const text = extractiveSummary(long, null);
		expect(text).toBe(extractiveSummary(long, null));
		expect(chars).toBeGreaterThan(2_000_000);
		expect(text.length).toBeLessThan(16_000);
		// The newest items win a section's place.
		expect(parseSummary(text)['Open questions'].at(-1)).toMatch(/Question 1999/);
	});

	it('stays within a token budget, keeping every section and the newest items', () => {
		const long: ContextRow[] = [];
		for (let i = 0; i < 300; i++) {
			long.push(row('user', `Question ${i}: should module${i}.ts use the new parser? We must not break build ${i}.`));
			long.push(row('assistant', `We decided to keep module${i}.ts. I updated module${i}.ts and fixed test ${i}.`));
		}
		const count = (text: string) => o200k.countTokens(text);
		const unbounded = extractiveSummary(long, null);
		expect(count(unbounded)).toBeGreaterThan(600);
		const text = extractiveSummary(long, null, '', { budget: 300, count });
		expect(count(text)).toBeLessThanOrEqual(300);
		expect([...text.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual([...SUMMARY_SECTIONS]);
		const sections = parseSummary(text);
		expect(sections.Goal[0]).toMatch(/Question 0/);
		expect(sections['Open questions'].at(-1)).toMatch(/Question 299/);
		// A summary already within its budget is left as it was.
		expect(extractiveSummary(long, null, '', { budget: 100_000, count })).toBe(unbounded);
	});
});
