// A message's document after this device's edits: which fields were edited since the last stamp
// is read from the digests kept of them then, so only those fields take a new clock. The digests
// are kept only of the fields that have a value; records kept before listed every field.
import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../db/schema';
import { digest } from './digest';
import { fieldsOfRow, MESSAGE_FIELDS } from './message-document';
import { nextPosition } from './position';
import { digestsOf, stampMessage } from './stamp-message';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const random = seededRandom(3);
const POSITION = nextPosition(undefined, NOW, random);

function row(extra: Partial<MessageRow> = {}): MessageRow {
	return { session_id: 's-1', seq: 0, position: POSITION, id: 'm-1', role: 'assistant', content: 'Lisbon in May is warm.', status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: NOW, error: 'timed out', ...extra };
}

/** Digests as records kept before listed them: one for every field, those without a value too. */
const everyField = (message: MessageRow) => Object.fromEntries(MESSAGE_FIELDS.map((field) => [field, digest(fieldsOfRow(message)[field])]));

describe('stamping a message', () => {
	it('keeps digests of the fields that have a value only', () => {
		expect(Object.keys(digestsOf(fieldsOfRow(row()))).sort()).toEqual(['content', 'created_at', 'error', 'id', 'kind', 'role', 'status']);
	});

	for (const [kept, sumsOf] of [
		['as kept now', (message: MessageRow) => digestsOf(fieldsOfRow(message))],
		['as records kept before list them', everyField]
	] as const) {
		it(`gives a new clock to the fields edited since the last stamp and to no other, from digests ${kept}`, () => {
			const first = stampMessage('s-1', POSITION, fieldsOfRow(row()), undefined, { at: NOW, random });
			const previous = { clocks: { clock: first.doc.clock, clocks: first.doc.clocks }, sums: sumsOf(row()) };
			expect(stampMessage('s-1', POSITION, fieldsOfRow(row()), previous, { at: NOW + 1, random }).changed).toBe(false);
			// The answer is edited and its error cleared: those two fields are edits, and only they.
			const edited = stampMessage('s-1', POSITION, fieldsOfRow(row({ content: 'Lisbon in May is mild.', error: undefined })), previous, { at: NOW + 2, random });
			expect(edited.changed).toBe(true);
			expect(Object.keys(edited.doc.clocks).sort()).toEqual(['content', 'error']);
			expect(edited.doc.clocks.content! > first.doc.clock).toBe(true);
			// A field given a value is an edit too.
			const pinned = stampMessage('s-1', POSITION, fieldsOfRow(row({ pinned: true })), previous, { at: NOW + 3, random });
			expect(Object.keys(pinned.doc.clocks)).toEqual(['pinned']);
		});
	}
});
