// In place (the default) versus rotating into a child session: ids, parent link, end reason,
// old_session_id, the thread key and the lifecycle hooks around post_compaction.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { getSession } from '../db/session-verbs';
import { compactSession } from './compact-session';
import { seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';

const setup = useCompactionEnv('rotation');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

describe('where a compaction lands', () => {
	it('in place: the session keeps its id, old rows stay readable but inactive, the summary sits before the tail', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps(), { sessionId: id, reason: 'manual' });
		await env.bus.hooks.settled();
		expect(outcome).toMatchObject({ status: 'compacted', sessionId: id, rotated: false });
		expect(env.bus.events.map((e) => e.hook)).toEqual(['post_compaction']);
		expect(env.bus.of('post_compaction')[0]).toMatchObject({ session_id: id, old_session_id: '' });
		const rows = await listMessages(db, id);
		expect(rows).toHaveLength(24 + 1);
		const summary = rows.find((row) => row.kind === 'summary')!;
		const active = rows.filter((row) => row.active === 1);
		expect(active[0]).toBe(summary);
		// Rows keep their order by seq; the summary's fractional seq puts it right before the tail.
		expect(rows.map((row) => row.seq)).toEqual([...rows.map((row) => row.seq)].sort((a, b) => a - b));
		expect(Number.isInteger(summary.seq)).toBe(false);
		expect(rows.filter((row) => row.seq < summary.seq).every((row) => row.active === 0 && row.compacted_by === summary.compaction!.id)).toBe(true);
		expect(rows.filter((row) => row.seq > summary.seq).every((row) => row.active === 1)).toBe(true);
		expect((await getSession(db, id))!.ended_at).toBeNull();
	});

	it('rotating: a child continues the thread, the parent ends with "compression", and the switch is announced', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const parentBefore = await listMessages(db, id);
		const outcome = await compactSession(env.deps({}, { inPlace: false }), { sessionId: id, reason: 'manual' });
		await env.bus.hooks.settled();
		expect(outcome).toMatchObject({ status: 'compacted', rotated: true });
		const childId = outcome.status === 'compacted' ? outcome.sessionId : '';
		expect(childId).not.toBe(id);
		const parent = (await getSession(db, id))!;
		const child = (await getSession(db, childId))!;
		expect(parent).toMatchObject({ end_reason: 'compression', ended_at: expect.any(Number) });
		expect(child).toMatchObject({ parent_session_id: id, parent_kind: 'compression', session_key: parent.session_key, ended_at: null, title: parent.title });
		// The parent's transcript is left exactly as it was; the child starts with the summary.
		expect(await listMessages(db, id)).toEqual(parentBefore);
		const childRows = await listMessages(db, childId);
		expect(childRows[0]).toMatchObject({ kind: 'summary', compaction: { old_session_id: id } });
		expect(childRows.map((row) => row.seq)).toEqual(childRows.map((_, i) => i));
		expect(child.next_seq).toBe(childRows.length);
		expect(env.bus.events.map((e) => [e.hook, e.payload.session_id])).toEqual([
			['on_session_end', id],
			['on_session_start', childId],
			['on_session_reset', childId],
			['post_compaction', childId]
		]);
		expect(env.bus.of('on_session_end')[0]).toMatchObject({ end_reason: 'compression', session_key: parent.session_key });
		expect(env.bus.of('on_session_reset')[0]).toMatchObject({ old_session_id: id, session_key: parent.session_key });
		expect(env.bus.of('post_compaction')[0]).toMatchObject({ session_id: childId, old_session_id: id });
	});

	it('an imported session that rotates passes its origin to the child, so the lineage stays one conversation', async () => {
		const id = await env.newSession();
		await db.sessions.update(id, { import_id: 'import-1' });
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps({}, { inPlace: false }), { sessionId: id, reason: 'manual' });
		const childId = outcome.status === 'compacted' ? outcome.sessionId : '';
		expect(await getSession(db, childId)).toMatchObject({ parent_session_id: id, import_id: 'import-1' });
	});

	it("the child keeps what the session's provider is called, so it can still be named if the provider goes", async () => {
		const id = await env.newSession();
		await db.sessions.update(id, { named_provider: { id: 'offline', name: 'Offline model (built-in)' } });
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps({}, { inPlace: false }), { sessionId: id, reason: 'manual' });
		const childId = outcome.status === 'compacted' ? outcome.sessionId : '';
		expect(await getSession(db, childId)).toMatchObject({ parent_session_id: id, named_provider: { id: 'offline', name: 'Offline model (built-in)' } });
	});

	it("the child keeps the chat's own settings: the conversation goes on as it was set up", async () => {
		const id = await env.newSession();
		const chat_settings = { system_prompt: 'Answer as a pirate.', temperature: 0.3, compaction: 50 };
		await db.sessions.update(id, { chat_settings });
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps({}, { inPlace: false }), { sessionId: id, reason: 'manual' });
		const childId = outcome.status === 'compacted' ? outcome.sessionId : '';
		expect(await getSession(db, childId)).toMatchObject({ parent_session_id: id, chat_settings });
	});

	it('a second compaction updates the first summary instead of summarising it again', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		await compactSession(env.deps(), { sessionId: id, reason: 'manual' });
		await seedConversation(db, id, 12);
		await compactSession(env.deps(), { sessionId: id, reason: 'manual' });
		const rows = await listMessages(db, id);
		const summaries = rows.filter((row) => row.kind === 'summary');
		expect(summaries).toHaveLength(2);
		const [first, second] = summaries;
		expect(first.active).toBe(0);
		expect(first.compacted_by).toBe(second.compaction!.id);
		expect(second.active).toBe(1);
		// The goal the first summary kept is carried into the second one.
		const goal = /## Goal\n- (.+)/.exec(first.content)![1];
		expect(second.content).toContain(goal);
	});
});
