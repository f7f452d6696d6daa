// Two devices change the same message: each field keeps its last change (the content of an
// answer once complete, what covers it, the version it belongs to), a removal is final, and the
// result does not depend on the order, grouping or repetition of the merges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMessageDocs, sameMessage } from './merge-message';
import type { MessageDoc } from './message-document';
import { nextPosition } from './position';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const random = seededRandom(5);
const POSITION = nextPosition(undefined, NOW, random);
const CLOCKS = [POSITION, ...[1, 2].map((i) => nextPosition(POSITION, NOW + i, random))];
const clock = fc.constantFrom(...CLOCKS);

const messageDoc: fc.Arbitrary<MessageDoc> = fc.record({
	session_id: fc.constant('s-1'),
	position: fc.constant(POSITION),
	clock: fc.constant(POSITION),
	fields: fc.record(
		{
			id: fc.constant('m-1'),
			role: fc.constant('assistant' as const),
			content: fc.constantFrom('', 'first words', 'first words, and the rest'),
			status: fc.constantFrom('complete' as const, 'error' as const),
			kind: fc.constantFrom('message' as const, 'notice' as const),
			created_at: fc.constant(NOW),
			compacted_by: fc.constantFrom('c-1', 'c-2'),
			branch: fc.record({ at: fc.constant(null), id: clock })
		},
		{ requiredKeys: ['id', 'role', 'content', 'status', 'kind', 'created_at'] }
	),
	clocks: fc.record({ content: clock, status: clock, compacted_by: clock, branch: clock }, { requiredKeys: [] }),
	removed: fc.boolean()
});

describe('mergeMessageDocs', () => {
	it('is commutative, associative and idempotent (property)', () => {
		fc.assert(
			fc.property(messageDoc, messageDoc, messageDoc, (a, b, c) => {
				expect(sameMessage(mergeMessageDocs(a, b), mergeMessageDocs(b, a))).toBe(true);
				expect(sameMessage(mergeMessageDocs(mergeMessageDocs(a, b), c), mergeMessageDocs(a, mergeMessageDocs(b, c)))).toBe(true);
				expect(sameMessage(mergeMessageDocs(a, a), a)).toBe(true);
			})
		);
	});

	it('takes each field from the later change: an answer completed on one device and covered by a compaction on the other', () => {
		const base: MessageDoc = { session_id: 's-1', position: POSITION, clock: POSITION, fields: { id: 'm-1', role: 'assistant', content: 'first words', status: 'error', kind: 'message', created_at: NOW }, clocks: {}, removed: false };
		const completed = { ...base, fields: { ...base.fields, content: 'first words, and the rest', status: 'complete' as const }, clocks: { content: CLOCKS[1], status: CLOCKS[1] } };
		const covered = { ...base, fields: { ...base.fields, compacted_by: 'c-1' }, clocks: { compacted_by: CLOCKS[2] } };
		expect(mergeMessageDocs(completed, covered).fields).toMatchObject({ content: 'first words, and the rest', status: 'complete', compacted_by: 'c-1' });
		expect(mergeMessageDocs(covered, { ...base, removed: true }).removed).toBe(true);
	});

	it('keeps a message in context as its last pin or unpin says, beside an edit of another field elsewhere', () => {
		const base: MessageDoc = { session_id: 's-1', position: POSITION, clock: POSITION, fields: { id: 'm-1', role: 'user', content: 'Keep this.', status: 'error', kind: 'message', created_at: NOW }, clocks: {}, removed: false };
		const pinned = { ...base, fields: { ...base.fields, pinned: true }, clocks: { pinned: CLOCKS[1] } };
		const retried = { ...base, fields: { ...base.fields, status: 'complete' as const }, clocks: { status: CLOCKS[2] } };
		expect(mergeMessageDocs(pinned, retried).fields).toMatchObject({ pinned: true, status: 'complete' });
		expect(mergeMessageDocs(retried, pinned).fields).toMatchObject({ pinned: true, status: 'complete' });
		const unpinned = { ...base, clocks: { pinned: CLOCKS[2] } };
		expect(mergeMessageDocs(pinned, unpinned).fields).not.toHaveProperty('pinned');
		expect(mergeMessageDocs(unpinned, pinned).fields).not.toHaveProperty('pinned');
	});
});
