// Two devices edit the same session: each field keeps its last edit, a deletion always wins, and
// the result does not depend on the order, grouping or repetition of the merges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../db/schema';
import { testSessionRow } from '../db/test-session-row';
import { mergeSessionDocs } from './merge-session';
import { nextPosition } from './position';
import { CLOCKED_FIELDS, stampSession, type SessionDoc } from './session-document';
import { seededRandom } from './test-random';

const NOW = Date.UTC(2026, 0, 1);
const random = seededRandom(21);
// Few clocks and few values, so ties on both are common.
const CLOCKS = [0, 1, 2].map((i) => nextPosition(undefined, NOW + i, random));
const clock = fc.constantFrom(...CLOCKS);
const time = fc.integer({ min: 0, max: 5 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const sessionDoc: fc.Arbitrary<SessionDoc> = fc.record({
	session_id: fc.constant('s-1'),
	created_at: time,
	last_activity_at: time,
	deleted_at: maybe(time),
	fields: fc.record({
		title: fc.constantFrom('Plans', 'Trip', 'plans'),
		title_source: fc.constantFrom('auto' as const, 'message' as const, 'user' as const),
		session_key: fc.constantFrom('web:a', 'web:b'),
		ended_at: maybe(time),
		end_reason: maybe(fc.constantFrom('new_session', 'reset')),
		parent_session_id: maybe(fc.constantFrom('p-1', 'p-2')),
		parent_kind: maybe(fc.constantFrom('branch' as const, 'compression' as const)),
		archived: fc.constantFrom(0 as const, 1 as const),
		pinned: fc.constantFrom(0 as const, 1 as const),
		provider: fc.constantFrom('openai', 'anthropic'),
		model: fc.constantFrom('1', '01', '')
	}),
	clocks: fc.record(Object.fromEntries(CLOCKED_FIELDS.map((field) => [field, clock])) as Record<(typeof CLOCKED_FIELDS)[number], fc.Arbitrary<string>>)
});

describe('mergeSessionDocs', () => {
	it('is commutative (property)', () => {
		fc.assert(fc.property(sessionDoc, sessionDoc, (a, b) => {
			expect(mergeSessionDocs(a, b)).toEqual(mergeSessionDocs(b, a));
		}));
	});

	it('is associative (property)', () => {
		fc.assert(
			fc.property(sessionDoc, sessionDoc, sessionDoc, (a, b, c) => {
				expect(mergeSessionDocs(mergeSessionDocs(a, b), c)).toEqual(mergeSessionDocs(a, mergeSessionDocs(b, c)));
			})
		);
	});

	it('is idempotent: merging a version again changes nothing (property)', () => {
		fc.assert(
			fc.property(sessionDoc, sessionDoc, (a, b) => {
				expect(mergeSessionDocs(a, a)).toEqual(a);
				const merged = mergeSessionDocs(a, b);
				expect(mergeSessionDocs(merged, b)).toEqual(merged);
				expect(mergeSessionDocs(merged, a)).toEqual(merged);
			})
		);
	});

	it('gives every device the same session whatever order the versions arrive in (property)', () => {
		fc.assert(
			fc.property(fc.array(sessionDoc, { minLength: 1, maxLength: 6 }), fc.infiniteStream(fc.nat()), (docs, picks) => {
				const shuffled = [...docs];
				const it = picks[Symbol.iterator]();
				for (let i = shuffled.length - 1; i > 0; i--) {
					const j = it.next().value % (i + 1);
					[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
				}
				expect(shuffled.reduce(mergeSessionDocs)).toEqual(docs.reduce(mergeSessionDocs));
			})
		);
	});

	it('keeps per field the value of the greater clock, the earliest deletion and the latest activity (property)', () => {
		fc.assert(
			fc.property(fc.array(sessionDoc, { minLength: 1, maxLength: 5 }), (docs) => {
				const merged = docs.reduce(mergeSessionDocs);
				for (const field of CLOCKED_FIELDS) {
					const latest = docs.reduce((max, doc) => (doc.clocks[field] > max ? doc.clocks[field] : max), '');
					expect(merged.clocks[field]).toBe(latest);
					const candidates = docs.filter((doc) => doc.clocks[field] === latest).map((doc) => doc.fields[field]);
					expect(candidates).toContainEqual(merged.fields[field]);
				}
				const deletions = docs.map((doc) => doc.deleted_at).filter((at) => at !== null);
				expect(merged.deleted_at).toBe(deletions.length ? Math.min(...deletions) : null);
				expect(merged.last_activity_at).toBe(Math.max(...docs.map((doc) => doc.last_activity_at)));
				expect(merged.created_at).toBe(Math.min(...docs.map((doc) => doc.created_at)));
			})
		);
	});

	it('lets an edit made after seeing another device’s edits win over all of them (property)', () => {
		fc.assert(
			fc.property(fc.array(sessionDoc, { minLength: 1, maxLength: 4 }), fc.integer(), fc.integer({ min: 0, max: NOW }), (docs, seed, now) => {
				const seen = docs.reduce(mergeSessionDocs);
				const row: SessionRow = testSessionRow('s-1', { ...seen.fields, title: 'Edited after seeing', created_at: seen.created_at, last_activity_at: seen.last_activity_at });
				const edited = stampSession(row, seen, now, seededRandom(seed));
				for (const doc of docs) expect(mergeSessionDocs(doc, edited).fields.title).toBe('Edited after seeing');
			})
		);
	});

	it('merges a rename on one device with an archive on the other, and a deletion wins over both', () => {
		const base = stampSession(testSessionRow('s-1', { title: 'Plans' }), undefined, NOW, seededRandom(1));
		const row = testSessionRow('s-1', { title: 'Plans' });
		const renamed = stampSession({ ...row, title: 'Trip to Lisbon' }, base, NOW + 10, seededRandom(2));
		const archived = stampSession({ ...row, archived: 1 }, base, NOW + 5, seededRandom(3));
		const merged = mergeSessionDocs(renamed, archived);
		expect(merged.fields).toMatchObject({ title: 'Trip to Lisbon', archived: 1 });
		expect(merged.deleted_at).toBeNull();
		const deleted = stampSession(row, base, NOW + 1, seededRandom(4), NOW + 1);
		const renamedAgain = stampSession({ ...row, title: 'Later rename' }, mergeSessionDocs(merged, base), NOW + 100, seededRandom(5));
		expect(mergeSessionDocs(renamedAgain, deleted).deleted_at).toBe(NOW + 1);
		expect(mergeSessionDocs(deleted, renamedAgain).deleted_at).toBe(NOW + 1);
	});

	it('refuses to merge two different sessions', () => {
		const a = stampSession(testSessionRow('s-1'), undefined, NOW, seededRandom(1));
		const b = stampSession(testSessionRow('s-2'), undefined, NOW, seededRandom(1));
		expect(() => mergeSessionDocs(a, b)).toThrow(/Cannot merge session s-1 with session s-2/);
	});
});
