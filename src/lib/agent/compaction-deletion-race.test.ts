// A deletion or archive in one tab while another tab's compaction rotates the same session into
// a child: whichever commits first, the conversation goes (or is archived) as a whole, and
// post_compaction and on_session_delete each fire once for what really happened.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { getSession } from '../db/session-verbs';
import { archiveSessions } from '../sessions/archive-sessions';
import { deleteSessions } from '../sessions/delete-sessions';
import { afterFamilyRead } from '../sessions/test-read-family';
import { compactSession } from './compact-session';
import { say, scripted, seedConversation, useCompactionEnv, type CompactionEnv } from './compaction-fixtures';
import type { CompactionOutcome } from './compaction-types';

// The other tab commits right after the deletion read the family it plans from.
vi.mock('../sessions/read-family', async (importOriginal) => (await import('../sessions/test-read-family')).pausingReadFamily(await importOriginal()));

const setup = useCompactionEnv('deletion-race');
let env: CompactionEnv;
let db: PalimpsestDb;
let parent: string;
beforeEach(async () => {
	env = setup.current();
	db = env.db;
	afterFamilyRead.hook = null;
	parent = await env.newSession();
	await seedConversation(db, parent, 12);
});

const rotate = (deps = env.deps({}, { inPlace: false })) => compactSession(deps, { sessionId: parent, reason: 'manual' });
const childOf = (outcome: CompactionOutcome | null) => (outcome?.status === 'compacted' ? outcome.sessionId : '');

describe('a rotation in another tab between the plan and the commit', () => {
	it('a deletion takes the new child too: nothing of the conversation is left, each hook fires once', async () => {
		let rotation: CompactionOutcome | null = null;
		afterFamilyRead.hook = async () => {
			rotation = await rotate();
		};
		const outcome = await deleteSessions(env.sessions, [parent]);
		const child = childOf(rotation);
		expect(child).not.toBe('');
		expect([...outcome.ids].sort()).toEqual([parent, child].sort());
		expect(outcome.detached).toEqual([]);
		expect(await db.sessions.count()).toBe(0);
		expect(await db.messages.count()).toBe(0);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toEqual([expect.objectContaining({ session_id: child, old_session_id: parent })]);
		expect(env.bus.of('on_session_delete')).toEqual([
			{ session_id: parent, reason: 'delete', profile: 'default', deleted_ids: expect.arrayContaining([parent, child]), sessions_dir: null }
		]);
	});

	it('an archive archives the new child too, announced once', async () => {
		let rotation: CompactionOutcome | null = null;
		afterFamilyRead.hook = async () => {
			rotation = await rotate();
		};
		const outcome = await archiveSessions(env.sessions, [parent]);
		const child = childOf(rotation);
		expect([...outcome.ids].sort()).toEqual([parent, child].sort());
		expect((await getSession(db, child))?.archived).toBe(1);
		await env.bus.hooks.settled();
		expect(env.bus.of('on_session_delete')).toEqual([expect.objectContaining({ session_id: parent, reason: 'archive' })]);
	});
});

describe('a deletion that commits while the rotation writes its summary', () => {
	it('the compaction changes nothing and announces nothing; the deletion fires once', async () => {
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const { provider, requests } = scripted(async function* () {
			await held;
			yield* say('Goal: keep going.');
		});
		const running = rotate(env.deps({ provider }, { inPlace: false }));
		// The summary is being written: the plan is made, the commit not yet.
		await vi.waitFor(() => expect(requests).toHaveLength(1));
		const outcome = await deleteSessions(env.sessions, [parent]);
		release();
		expect(await running).toMatchObject({ status: 'noop', why: 'race' });
		expect(outcome.ids).toEqual([parent]);
		expect(await db.sessions.count()).toBe(0);
		expect(await db.messages.count()).toBe(0);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toEqual([]);
		expect(env.bus.of('on_session_delete')).toEqual([expect.objectContaining({ session_id: parent, reason: 'delete' })]);
	});
});
