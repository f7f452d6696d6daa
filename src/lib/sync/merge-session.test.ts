// Two devices edit the same session: each field keeps its last edit (a deletion and a restore
// too), each place keeps its last chosen version, a purge is final, and the result does not
// depend on the order, grouping or repetition of the merges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testSessionRow } from '../db/test-session-row';
import { mergeSessionDocs, sameSession } from './merge-session';
import { nextPosition } from './position';
import { CLOCKED_FIELDS, purgedSession, stampSession, type SessionDoc } from './session-document';
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
		model: fc.constantFrom('1', '01', ''),
		chat_settings: maybe(fc.constantFrom({ temperature: 0.2 }, { system_prompt: 'Be brief.', temperature: 0.2 }, { compaction: 'off' as const })),
		assistant: maybe(fc.constantFrom({ id: 'a-1', name: 'Reviewer' }, { id: 'a-2', name: 'Poet' })),
		deleted_at: maybe(time),
		provider_ref: maybe(fc.record({ preset: fc.constantFrom('openai', 'custom'), base_url: fc.constantFrom('https://a.example/v1', ''), name: fc.constantFrom('A', '') }))
	}),
	clocks: fc.record(Object.fromEntries(CLOCKED_FIELDS.map((field) => [field, clock])) as Record<(typeof CLOCKED_FIELDS)[number], fc.Arbitrary<string>>),
	shown: fc.dictionary(fc.constantFrom('', CLOCKS[0]), fc.record({ id: clock, clock })),
	purged_at: maybe(time)
}).map((doc) => (doc.purged_at === null ? doc : purgedSession(doc.session_id, doc.purged_at)));

describe('mergeSessionDocs', () => {
	it('is commutative, associative and idempotent (property)', () => {
		fc.assert(
			fc.property(sessionDoc, sessionDoc, sessionDoc, (a, b, c) => {
				expect(sameSession(mergeSessionDocs(a, b), mergeSessionDocs(b, a))).toBe(true);
				expect(sameSession(mergeSessionDocs(mergeSessionDocs(a, b), c), mergeSessionDocs(a, mergeSessionDocs(b, c)))).toBe(true);
				expect(sameSession(mergeSessionDocs(a, a), a)).toBe(true);
				const merged = mergeSessionDocs(a, b);
				expect(sameSession(mergeSessionDocs(merged, b), merged)).toBe(true);
			})
		);
	});

	it('keeps a purge whatever it meets (property)', () => {
		fc.assert(
			fc.property(sessionDoc, sessionDoc, (a, b) => {
				if (a.purged_at !== null) expect(mergeSessionDocs(a, b).purged_at).not.toBeNull();
			})
		);
	});

	it("keeps a chat's settings changed on one device and a rename on the other, the later of two changes of settings", () => {
		const base = stampSession('s-1', testSessionRow('s-1', { title: 'Draft' }), undefined, { at: NOW, random });
		const renamed = stampSession('s-1', testSessionRow('s-1', { title: 'Trip', title_source: 'user' }), base, { at: NOW + 10, random });
		const cooler = stampSession('s-1', testSessionRow('s-1', { title: 'Draft', chat_settings: { temperature: 0.2 } }), base, { at: NOW + 20, random });
		const terse = stampSession('s-1', testSessionRow('s-1', { title: 'Trip', title_source: 'user', chat_settings: { system_prompt: 'Be terse.' } }), renamed, { at: NOW + 30, random });
		expect(mergeSessionDocs(renamed, cooler).fields).toMatchObject({ title: 'Trip', chat_settings: { temperature: 0.2 } });
		expect(mergeSessionDocs(cooler, terse).fields.chat_settings).toEqual({ system_prompt: 'Be terse.' });
		// Back to the defaults is a change like any other: the later one wins.
		const cleared = stampSession('s-1', testSessionRow('s-1', { title: 'Draft' }), cooler, { at: NOW + 40, random });
		expect(cleared.fields.chat_settings).toBeNull();
		expect(mergeSessionDocs(cleared, terse).fields.chat_settings).toBeNull();
	});

	it('keeps a rename on one device and an archive on the other, and the later of two choices of version', () => {
		const base = stampSession('s-1', testSessionRow('s-1', { title: 'Draft' }), undefined, { at: NOW, random });
		const renamed = stampSession('s-1', testSessionRow('s-1', { title: 'Trip', title_source: 'user' }), base, { at: NOW + 10, random });
		const archived = stampSession('s-1', testSessionRow('s-1', { title: 'Draft', archived: 1, version_shown: { '': 'V1' } }), base, { at: NOW + 20, random });
		const chosen = stampSession('s-1', testSessionRow('s-1', { title: 'Trip', title_source: 'user', version_shown: { '': 'V2' } }), renamed, { at: NOW + 30, random });
		const merged = mergeSessionDocs(chosen, archived);
		expect(merged.fields).toMatchObject({ title: 'Trip', archived: 1 });
		expect(merged.shown['']?.id).toBe('V2');
	});

	it('undoes a deletion with a restore made after it, and not with one made before', () => {
		const base = stampSession('s-1', testSessionRow('s-1'), undefined, { at: NOW, random });
		const deleted = stampSession('s-1', null, base, { at: NOW + 10, random, deleted: true });
		expect(deleted.fields.deleted_at).toBe(NOW + 10);
		const restored = stampSession('s-1', testSessionRow('s-1'), deleted, { at: NOW + 20, random });
		expect(restored.fields.deleted_at).toBeNull();
		expect(mergeSessionDocs(deleted, restored).fields.deleted_at).toBeNull();
		// An edit made before seeing the deletion does not undo it.
		const renamedBefore = stampSession('s-1', testSessionRow('s-1', { title: 'Late' }), base, { at: NOW + 5, random });
		expect(mergeSessionDocs(deleted, renamedBefore).fields.deleted_at).toBe(NOW + 10);
	});
});
