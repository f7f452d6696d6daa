// Undo compaction: the compacted rows return to the context and the summary leaves it (kept,
// marked undone); no post_compaction fires; only the latest compaction can be undone, so one
// made meanwhile (in another tab) wins; the work lock keeps it from running beside other work;
// after a rotation the conversation continues in the earlier session instead.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { compactSession } from '../agent/compact-session';
import { seedConversation, useCompactionEnv, type CompactionEnv } from '../agent/compaction-fixtures';
import { listActiveMessages, CompactionRaceError } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import { appendMessages, listMessages } from '../db/message-verbs';
import { findThreadHead, getSession } from '../db/session-verbs';
import { continueInEarlier, previewUndo, undoCompaction } from './undo-compaction';
import { SessionBusyError, withWorkLock } from './work-lock';

const setup = useCompactionEnv('undo');
let env: CompactionEnv;
beforeEach(() => {
	env = setup.current();
});

const context = async (id: string) => contextRows(await listActiveMessages(env.db, id)).map((row) => row.content);
const compact = async (id: string, inPlace = true) => {
	const outcome = await compactSession(env.deps({}, { inPlace }), { sessionId: id, reason: 'manual' });
	expect(outcome.status).toBe('compacted');
	return outcome;
};
const markerIds = async (id: string) => (await listMessages(env.db, id)).filter((row) => row.compaction).map((row) => row.compaction!.id);

describe('Undo compaction', () => {
	it('brings the compacted rows back, keeps the summary as an undone note, and fires no post_compaction', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		const before = await context(id);
		await compact(id);
		expect(await context(id)).not.toEqual(before);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toHaveLength(1);
		const [markerId] = await markerIds(id);

		const { restored } = await undoCompaction(env.sessions, id, markerId);
		expect(restored).toBeGreaterThan(0);
		expect(await context(id)).toEqual(before);
		const note = (await listActiveMessages(env.db, id)).find((row) => row.compaction?.id === markerId)!;
		expect(note).toMatchObject({ kind: 'notice', active: 1 });
		expect(note.compaction?.undone_at).toBeGreaterThan(0);
		expect(note.content).toContain('Goal');
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toHaveLength(1);
		// Undone once is undone: a second click changes nothing.
		await expect(undoCompaction(env.sessions, id, markerId)).rejects.toBeInstanceOf(CompactionRaceError);
	});

	it('says beforehand which rows an undo leaves in the context, changing nothing until it is done', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		await compact(id);
		const [markerId] = await markerIds(id);
		const transcript = await listMessages(env.db, id);
		const preview = await previewUndo(env.sessions, id, markerId);
		expect(await listMessages(env.db, id)).toEqual(transcript);
		await undoCompaction(env.sessions, id, markerId);
		expect(contextRows(preview).map((row) => [row.seq, row.content])).toEqual(contextRows(await listActiveMessages(env.db, id)).map((row) => [row.seq, row.content]));
		await expect(previewUndo(env.sessions, id, markerId)).rejects.toBeInstanceOf(CompactionRaceError);
	});

	it('refuses an older compaction when another tab compacted meanwhile, and changes nothing', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		const before = await context(id);
		await compact(id);
		const [first] = await markerIds(id);
		// Another tab: more conversation, and a second compaction, while this tab still shows the first.
		await seedConversation(env.db, id, 8);
		await compact(id);
		const transcript = await listMessages(env.db, id);
		await expect(undoCompaction(env.sessions, id, first)).rejects.toBeInstanceOf(CompactionRaceError);
		expect(await listMessages(env.db, id)).toEqual(transcript);
		// The latest can be undone, then the one before it.
		const second = (await markerIds(id)).find((markerId) => markerId !== first)!;
		await undoCompaction(env.sessions, id, second);
		await undoCompaction(env.sessions, id, first);
		expect((await context(id)).slice(0, before.length)).toEqual(before);
	});

	it('waits for no one: while a compaction holds the session in another tab, it refuses as busy', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		await compact(id);
		const [markerId] = await markerIds(id);
		let release!: () => void;
		const holding = withWorkLock('default', id, { kind: 'compaction' }, () => new Promise<void>((resolve) => (release = resolve)));
		await expect(undoCompaction(env.sessions, id, markerId)).rejects.toBeInstanceOf(SessionBusyError);
		release();
		await holding;
		await expect(undoCompaction(env.sessions, id, markerId)).resolves.toMatchObject({ restored: expect.any(Number) });
	});
});

describe('Continue in the earlier session', () => {
	it('reopens the session a rotation ended, with what was said since, and ends the later one', async () => {
		const id = await env.newSession();
		await seedConversation(env.db, id, 12);
		const parentRows = (await listMessages(env.db, id)).length;
		const outcome = await compact(id, false);
		const child = outcome.status === 'compacted' ? outcome.sessionId : '';
		const [markerId] = await markerIds(child);
		await appendMessages(env.db, child, [
			{ id: 'later-q', role: 'user', kind: 'message', status: 'complete', created_at: Date.now() + 1000, content: 'Asked after the compaction' },
			{ id: 'later-a', role: 'assistant', kind: 'message', status: 'complete', created_at: Date.now() + 1000, content: 'Answered after it' }
		]);
		await env.bus.hooks.settled();
		env.bus.events.length = 0;

		expect(await continueInEarlier(env.sessions, child, markerId, id)).toBe(id);
		expect(await getSession(env.db, id)).toMatchObject({ ended_at: null, end_reason: null });
		expect(await getSession(env.db, child)).toMatchObject({ end_reason: 'compression_undone', parent_kind: 'branch' });
		const parent = await listMessages(env.db, id);
		expect(parent).toHaveLength(parentRows + 2);
		expect(parent.slice(-2).map((row) => row.content)).toEqual(['Asked after the compaction', 'Answered after it']);
		expect(await findThreadHead(env.db, id)).toBe(id);
		await env.bus.hooks.settled();
		expect(env.bus.of('on_session_end')).toEqual([expect.objectContaining({ session_id: child, end_reason: 'compression_undone' })]);
		expect(env.bus.of('post_compaction')).toHaveLength(0);
	});

	const rotatedWithLater = async () => {
		const parent = await env.newSession();
		await seedConversation(env.db, parent, 12);
		const outcome = await compact(parent, false);
		const child = outcome.status === 'compacted' ? outcome.sessionId : '';
		await appendMessages(env.db, child, [{ id: 'later-q', role: 'user', kind: 'message', status: 'complete', created_at: Date.now() + 1000, content: 'Asked after the compaction' }]);
		const [markerId] = await markerIds(child);
		return { parent, child, markerId };
	};
	const snapshot = async (...ids: string[]) => Promise.all(ids.map(async (id) => ({ row: await getSession(env.db, id), rows: await listMessages(env.db, id) })));

	// Origins as an import made before links to other sessions were cut could leave them: an
	// imported session whose marker names one of yours, yours naming an imported one, or two imports.
	it.each([
		['an imported session, an earlier one of yours', 'file-a', undefined],
		['a session of yours, an earlier imported one', undefined, 'file-a'],
		['sessions of two imports', 'file-a', 'file-b']
	])('never adds to an earlier session of another origin (%s): it says why and changes nothing', async (_name, childOrigin, parentOrigin) => {
		const { parent, child, markerId } = await rotatedWithLater();
		await env.db.sessions.update(child, { import_id: childOrigin });
		await env.db.sessions.update(parent, { import_id: parentOrigin });
		const before = await snapshot(parent, child);
		await expect(continueInEarlier(env.sessions, child, markerId, parent)).rejects.toMatchObject({
			name: 'SessionOriginError',
			message: expect.stringMatching(/^This session and the earlier one did not come from the same place .* Nothing changed; the conversation goes on here\.$/)
		});
		expect(await snapshot(parent, child)).toEqual(before);
	});

	it('continues between two sessions of the same import', async () => {
		const { parent, child, markerId } = await rotatedWithLater();
		await env.db.sessions.update(child, { import_id: 'file-a' });
		await env.db.sessions.update(parent, { import_id: 'file-a' });
		expect(await continueInEarlier(env.sessions, child, markerId, parent)).toBe(parent);
		expect((await listMessages(env.db, parent)).at(-1)?.content).toBe('Asked after the compaction');
	});
});
