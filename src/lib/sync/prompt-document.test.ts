// A saved prompt's document: edits merge field by field by their clocks, in any order, any number
// of times, to the same prompt; a deletion holds; and what a server sends is read as hostile input.
import { describe, expect, it } from 'vitest';
import type { PromptRow } from '../db/schema';
import { mergePromptDocs, promptToBody, samePrompt, stampPrompt, type PromptDoc } from './prompt-document';
import { readDocument } from './read-document';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const random = seededRandom(7);
const row = (name: string, text: string, at = NOW): PromptRow => ({ id: 'p-1', name, text, created_at: NOW, updated_at: at });
const stamp = (r: PromptRow | null, previous: PromptDoc | undefined, at: number) => stampPrompt('p-1', r, previous, { at, random })!;

describe('a prompt document', () => {
	const base = stamp(row('translate', 'Translate {{text}}'), undefined, NOW);
	const renamed = stamp(row('to-english', 'Translate {{text}}', NOW + 10), base, NOW + 10);
	const rewritten = stamp(row('translate', 'Into English: {{text}}', NOW + 20), base, NOW + 20);

	it('takes each field from its latest edit, whichever device made it, in any order', () => {
		const merged = mergePromptDocs(renamed, rewritten);
		expect(merged.fields).toEqual({ name: 'to-english', text: 'Into English: {{text}}' });
		expect(samePrompt(merged, mergePromptDocs(rewritten, renamed))).toBe(true);
		expect(samePrompt(mergePromptDocs(merged, renamed), merged)).toBe(true);
		expect(samePrompt(mergePromptDocs(mergePromptDocs(base, renamed), rewritten), mergePromptDocs(base, mergePromptDocs(renamed, rewritten)))).toBe(true);
	});

	it('is not an edit when nothing changed, and an edit after seeing another wins over it', () => {
		expect(samePrompt(stamp(row('translate', 'Translate {{text}}'), base, NOW + 5), base)).toBe(true);
		// Made by a device whose clock is behind, but after the other's edit had arrived there.
		const seen = mergePromptDocs(renamed, rewritten);
		const later = stamp(row('to-english', 'Again {{text}}', NOW + 1), seen, NOW + 1);
		expect(mergePromptDocs(rewritten, later).fields.text).toBe('Again {{text}}');
		expect(mergePromptDocs(later, seen).fields).toEqual({ name: 'to-english', text: 'Again {{text}}' });
	});

	it('once deleted anywhere is deleted everywhere, and keeps nothing of its name or text', () => {
		const deleted = stamp(null, base, NOW + 30);
		expect(deleted.deleted_at).toBe(NOW + 30);
		for (const other of [renamed, rewritten, base]) {
			expect(mergePromptDocs(other, deleted).deleted_at).toBe(NOW + 30);
			expect(mergePromptDocs(deleted, other).fields).toEqual({ name: '', text: '' });
		}
		expect(promptToBody(deleted)).toEqual({ _id: 'prompt:p-1', format: 2, deleted_at: NOW + 30 });
		// Never synced and deleted: nothing to send.
		expect(stampPrompt('p-2', null, undefined, { at: NOW, random })).toBeUndefined();
	});

	it('is read back from its body as it was written', () => {
		const read = readDocument({ ...promptToBody(rewritten), _rev: '1-a' }, NOW);
		expect(read).toEqual({ kind: 'prompt', rev: '1-a', doc: rewritten });
		expect(readDocument({ ...promptToBody(stamp(null, base, NOW + 1)), _rev: '2-b' }, NOW)).toMatchObject({ kind: 'prompt', doc: { deleted_at: NOW + 1 } });
	});

	it('from a server that does not fit what a prompt may be here is refused, with the reason', () => {
		const body = { ...promptToBody(base), _rev: '1-a' };
		const refusals: Array<[Record<string, unknown>, RegExp]> = [
			[{ ...body, fields: { name: 'help', text: 'x' } }, /fields\.name/],
			[{ ...body, fields: { name: 'Bad Name', text: 'x' } }, /fields\.name/],
			[{ ...body, fields: { name: 'ok', text: 'x'.repeat(100_001) } }, /fields\.text/],
			[{ ...body, fields: { name: 'ok', text: 'x', extra: 1 } }, /holds a field this app does not know/],
			[{ ...body, clocks: { name: base.clocks.name } }, /clocks\.text/],
			[{ ...body, clocks: { ...base.clocks, title: base.clocks.name } }, /clocks/],
			[{ ...body, clocks: { ...base.clocks, text: '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' } }, /from the future/],
			[{ ...body, created_at: 'yesterday' }, /created_at/],
			[{ ...body, secret: 'x' }, /“secret”, a field this app does not know/],
			[{ ...body, _id: 'prompt:' }, /_id/]
		];
		for (const [doc, reason] of refusals) {
			const read = readDocument(doc, NOW);
			expect(read.kind, JSON.stringify(doc).slice(0, 80)).toBe('refused');
			expect(read.kind === 'refused' && read.reason).toMatch(reason);
		}
	});
});
