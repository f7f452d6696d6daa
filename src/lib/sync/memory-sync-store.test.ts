// The store's side of the contract, as the engine relies on it: an edit made during a push is
// not lost, a pulled session never clears a pending edit, and a late message of a deleted
// session is dropped and removed from the server.
import { describe, expect, it } from 'vitest';
import { testSessionRow } from '../db/test-session-row';
import { MemorySyncStore } from './memory-sync-store';
import type { MessageDoc } from './message-document';
import { nextPosition } from './position';
import { stampSession } from './session-document';
import { seededRandom } from './test-random';

const random = seededRandom(7);
const T = Date.UTC(2026, 0, 1);
let clock = T + 1_000;

function session(title: string, previous = undefined as ReturnType<typeof stampSession> | undefined, extra = {}) {
	return stampSession(testSessionRow('s1', { title, ...extra }), previous, ++clock, random);
}

function message(content: string, at: number): MessageDoc {
	const position = nextPosition(undefined, at, random);
	return { session_id: 's1', position, message: { id: `m-${position}`, role: 'user', content, status: 'complete', kind: 'message', created_at: at } };
}

describe('the memory sync store', () => {
	it('keeps an edit made while its earlier version was being sent, with the revision to replace', async () => {
		const store = new MemorySyncStore();
		const first = session('First');
		store.writeSession(first);
		const [sent] = await store.pending(1_000_000);
		store.writeSession(session('Second', first));

		await store.markPushed([{ kind: 'pushed', id: sent.id, edit: sent.edit, rev: '1-a' }]);

		expect(await store.pending(1_000_000)).toMatchObject([{ kind: 'session', rev: '1-a', doc: { fields: { title: 'Second' } } }]);
	});

	it('merges a pulled session with a pending edit and keeps the merge pending', async () => {
		const store = new MemorySyncStore();
		const base = session('Base');
		store.writeSession(base);
		const [sent] = await store.pending(1_000_000);
		await store.markPushed([{ kind: 'pushed', id: sent.id, edit: sent.edit, rev: '1-a' }]);
		store.writeSession(session('Renamed here', base));
		const elsewhere = session('Base', base, { archived: 1 });

		await store.applyPulled([{ kind: 'session', rev: '2-b', doc: elsewhere }], '7');

		expect(store.session('s1')?.fields).toMatchObject({ title: 'Renamed here', archived: 1 });
		expect(await store.pending(1_000_000)).toMatchObject([{ kind: 'session', rev: '2-b' }]);
		expect(await store.checkpoint()).toBe('7');
	});

	it('keeps a message that arrives before its session, and drops one that arrives after the session’s deletion', async () => {
		const store = new MemorySyncStore();
		const early = message('early', T);
		await store.applyPulled([{ kind: 'message', rev: '1-m', doc: early }], '1');
		expect(store.messages('s1')).toEqual([early]);

		const deleted = { ...session('Gone'), deleted_at: T + 5 };
		const late = message('late', T + 10);
		await store.applyPulled(
			[
				{ kind: 'message', rev: '1-l', doc: late },
				{ kind: 'session', rev: '3-d', doc: deleted }
			],
			'3'
		);

		expect(store.messages('s1')).toEqual([]);
		expect(await store.pending(1_000_000)).toEqual(
			expect.arrayContaining([
				{ kind: 'message-removed', id: `msg:s1:${early.position}`, edit: expect.any(Number), rev: '1-m', session_id: 's1', position: early.position },
				{ kind: 'message-removed', id: `msg:s1:${late.position}`, edit: expect.any(Number), rev: '1-l', session_id: 's1', position: late.position }
			])
		);
		expect(() => store.appendMessage(message('after', T + 20))).toThrow(/deleted/);
	});
});
