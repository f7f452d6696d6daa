// Which rows are active follows from what every device holds alike: the version chosen at each
// place, what covers a row (unless undone), and what retired it.
import { describe, expect, it } from 'vitest';
import { deriveConversation, FIRST_VERSION, type ConversationRow } from './conversation';

const P = (n: number) => String(n).padStart(26, '0');
const V2 = P(5_000);
const V3 = P(6_000);

function row(seq: number, extra: Partial<ConversationRow> = {}): ConversationRow {
	return { seq, position: P(seq + 1), compacted_by: null, active: 1, ...extra };
}

const active = (shown: Record<string, string> | undefined, rows: ConversationRow[]) => deriveConversation(shown, rows).rows.map((state) => state.active);

describe('deriveConversation', () => {
	it('shows only the version chosen at a place, whichever device chose last', () => {
		// After row 0: version 1 (rows 1, 2), version 2 (row 3) and version 3 (row 4), made on two devices at once.
		const rows = [row(0), row(1, { branch: { at: P(1), id: FIRST_VERSION } }), row(2, { branch: { at: P(1), id: FIRST_VERSION } }), row(3, { branch: { at: P(1), id: V2 } }), row(4, { branch: { at: P(1), id: V3 } })];
		expect(active({ [P(1)]: V3 }, rows)).toEqual([1, 0, 0, 0, 1]);
		expect(active({ [P(1)]: FIRST_VERSION }, rows)).toEqual([1, 1, 1, 0, 0]);
		// None chosen: the latest.
		expect(active(undefined, rows)).toEqual([1, 0, 0, 0, 1]);
		const conversation = deriveConversation({ [P(1)]: V2 }, rows);
		expect(conversation.versions).toEqual([{ after: 0, shown: 2, count: 3 }]);
		expect(conversation.rows[1].shelved).toEqual({ after: 0, version: 1 });
		expect(conversation.tip).toEqual({ at: P(1), id: V2 });
	});

	it('puts away a version inside a version with it', () => {
		// Row 1 is version 1 at the start; within it, after row 1, versions 1 (row 2) and 2 (row 3).
		const rows = [row(0, { branch: { at: null, id: FIRST_VERSION } }), row(1, { branch: { at: null, id: FIRST_VERSION } }), row(2, { branch: { at: P(2), id: FIRST_VERSION } }), row(3, { branch: { at: P(2), id: V2 } }), row(4, { branch: { at: null, id: V3 } })];
		expect(active({ '': FIRST_VERSION, [P(2)]: V2 }, rows)).toEqual([1, 1, 0, 1, 0]);
		expect(active({ '': V3, [P(2)]: V2 }, rows)).toEqual([0, 0, 0, 0, 1]);
	});

	it('keeps covered rows out until the compaction is undone; a retired row stays out', () => {
		const rows = [row(0, { compacted_by: 'c1' }), row(1, { compaction: { id: 'c1', kind: 'summarize', reason: 'manual', before_tokens: 1, after_tokens: 1, messages_removed: 1, at: 1 } }), row(2, { retired_by: 'c0' })];
		expect(active(undefined, rows)).toEqual([0, 1, 0]);
		rows[1] = { ...rows[1], compaction: { ...rows[1].compaction!, undone_at: 2 } };
		expect(active(undefined, rows)).toEqual([1, 1, 0]);
	});

	it('ends on a chain of places that loops (only a hostile document makes one): not on show', () => {
		const rows = [row(0, { branch: { at: P(2), id: FIRST_VERSION } }), row(1, { branch: { at: P(1), id: FIRST_VERSION } })];
		expect(active(undefined, rows)).toEqual([0, 0]);
	});
});
