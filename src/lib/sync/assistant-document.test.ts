// An assistant's document: edits merge field by field by their clocks, in any order, any number
// of times, to the same assistant; a deletion holds; and what a server sends is read as hostile input.
import { describe, expect, it } from 'vitest';
import type { AssistantRow } from '../db/schema';
import { assistantRowOf, assistantToBody, mergeAssistantDocs, sameAssistant, stampAssistant, type AssistantDoc } from './assistant-document';
import { readDocument } from './read-document';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const random = seededRandom(11);
const row = (more: Partial<AssistantRow> = {}, at = NOW): AssistantRow => ({ id: 'a-1', name: 'Reviewer', provider: 'p1', model: 'm1', starters: ['Review this'], chat_settings: { system_prompt: 'Review code.', temperature: 0.2 }, created_at: NOW, updated_at: at, ...more });
const stamp = (r: AssistantRow | null, previous: AssistantDoc | undefined, at: number) => stampAssistant('a-1', r, previous, { at, random })!;

describe('an assistant document', () => {
	const base = stamp(row(), undefined, NOW);
	const renamed = stamp(row({ name: 'Strict reviewer' }, NOW + 10), base, NOW + 10);
	const retuned = stamp(row({ chat_settings: { system_prompt: 'Review code.', temperature: 0.9 }, starters: [] }, NOW + 20), base, NOW + 20);

	it('takes each field from its latest edit, whichever device made it, in any order', () => {
		const merged = mergeAssistantDocs(renamed, retuned);
		expect(assistantRowOf(merged)).toMatchObject({ name: 'Strict reviewer', chat_settings: { temperature: 0.9 }, starters: [] });
		expect(sameAssistant(merged, mergeAssistantDocs(retuned, renamed))).toBe(true);
		expect(sameAssistant(mergeAssistantDocs(merged, renamed), merged)).toBe(true);
		expect(sameAssistant(mergeAssistantDocs(mergeAssistantDocs(base, renamed), retuned), mergeAssistantDocs(base, mergeAssistantDocs(renamed, retuned)))).toBe(true);
	});

	it('is not an edit when nothing changed, and no settings is null, read back as none', () => {
		expect(sameAssistant(stamp(row(), base, NOW + 5), base)).toBe(true);
		const plain = stamp(row({ chat_settings: undefined }, NOW + 6), base, NOW + 6);
		expect(plain.fields.chat_settings).toBeNull();
		expect(assistantRowOf(plain)).not.toHaveProperty('chat_settings');
	});

	it('once deleted anywhere is deleted everywhere, and keeps nothing of what it said', () => {
		const deleted = stamp(null, base, NOW + 30);
		for (const other of [renamed, retuned, base]) {
			expect(mergeAssistantDocs(other, deleted).deleted_at).toBe(NOW + 30);
			expect(JSON.stringify(mergeAssistantDocs(deleted, other))).not.toMatch(/Review/);
		}
		expect(assistantToBody(deleted)).toEqual({ _id: 'assistant:a-1', format: 2, deleted_at: NOW + 30 });
		expect(stampAssistant('a-2', null, undefined, { at: NOW, random })).toBeUndefined();
	});

	it('is read back from its body as it was written', () => {
		expect(readDocument({ ...assistantToBody(retuned), _rev: '1-a' }, NOW)).toEqual({ kind: 'assistant', rev: '1-a', doc: retuned });
		expect(readDocument({ ...assistantToBody(stamp(null, base, NOW + 1)), _rev: '2-b' }, NOW)).toMatchObject({ kind: 'assistant', doc: { deleted_at: NOW + 1 } });
	});

	it('from a server that does not fit what an assistant may be here is refused, with the reason', () => {
		const body = { ...assistantToBody(base), _rev: '1-a' };
		const fields = base.fields;
		const refusals: Array<[Record<string, unknown>, RegExp]> = [
			[{ ...body, fields: { ...fields, name: 'x'.repeat(101) } }, /fields\.name/],
			[{ ...body, fields: { ...fields, name: 42 } }, /fields\.name/],
			[{ ...body, fields: { ...fields, chat_settings: { temperature: 9 } } }, /fields\.chat_settings/],
			[{ ...body, fields: { ...fields, chat_settings: { system_prompt: 'x'.repeat(100_001) } } }, /fields\.chat_settings/],
			[{ ...body, fields: { ...fields, starters: 'hi' } }, /fields\.starters/],
			[{ ...body, fields: { ...fields, extra: 1 } }, /holds a field this app does not know/],
			[{ ...body, clocks: { name: base.clocks.name } }, /clocks\.provider/],
			[{ ...body, clocks: { ...base.clocks, title: base.clocks.name } }, /clocks/],
			[{ ...body, clocks: { ...base.clocks, model: '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' } }, /from the future/],
			[{ ...body, secret: 'x' }, /“secret”, a field this app does not know/],
			[{ ...body, _id: 'assistant:' }, /_id/]
		];
		for (const [doc, reason] of refusals) {
			const read = readDocument(doc, NOW);
			expect(read.kind, JSON.stringify(doc).slice(0, 80)).toBe('refused');
			expect(read.kind === 'refused' && read.reason).toMatch(reason);
		}
	});
});
