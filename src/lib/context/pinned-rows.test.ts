import { describe, expect, it } from 'vitest';
import { findKeptRows, pinnedTokens, type PinnableRow } from './pinned-rows';

type Row = PinnableRow & { tokens?: number };
const row = (seq: number, role: string, extra: Partial<Row> = {}): Row => ({ seq, role, kind: 'message', tokens: 10, ...extra });

describe('what pins keep', () => {
	it('each pinned message of yours or answer, and the results right after a pinned answer that called tools', () => {
		const rows: Row[] = [
			row(0, 'user', { pinned: true, tokens: 7 }),
			row(1, 'assistant', { pinned: true, tool_calls: [{ id: 'a' }, { id: 'b' }], tokens: 5 }),
			row(2, 'tool', { tool_call_id: 'a', tokens: 300 }),
			row(3, 'tool', { tool_call_id: 'b', tokens: 200 }),
			row(4, 'assistant', { tool_calls: [{ id: 'a' }] }),
			// The same call id again, answering a call that is not kept.
			row(5, 'tool', { tool_call_id: 'a', tokens: 900 }),
			row(6, 'tool', { pinned: true, tool_call_id: 'x', tokens: 900 }),
			row(7, 'user', { kind: 'summary', pinned: true, tokens: 900 }),
			row(8, 'assistant', { pinned: false })
		];
		expect(findKeptRows(rows).map((r) => r.seq)).toEqual([0, 1, 2, 3]);
		expect(pinnedTokens(rows)).toEqual({ messages: 2, tokens: 512 });
		// On the meter's scale, where the provider's count corrected this app's.
		expect(pinnedTokens(rows, 1.5)).toEqual({ messages: 2, tokens: 768 });
		expect(pinnedTokens(rows.map((r) => ({ ...r, pinned: undefined })))).toEqual({ messages: 0, tokens: 0 });
	});
});
