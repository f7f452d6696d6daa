// Every deletion path announces itself once, after commit, with every removed id, and the
// example session-index plugin (loaded through the real plugin host) drops its sidecars.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { kvGet, kvKeys } from '../db/plugin-verbs';
import { appendMessages, listMessages } from '../db/message-verbs';
import type { SessionRow } from '../db/schema';
import type { HookPayload } from '../hooks/hook-map';
import { makeHost, RUNNER_KINDS } from '../plugins/test-host';
import { archiveSessions, unarchiveSessions } from './archive-sessions';
import { deleteSessions } from './delete-sessions';
import { repairProfiles } from './repair-profiles';
import { createSession } from './session-lifecycle';
import type { SessionContext } from './session-context';
import { autoArchiveIdleSessions, DAY_MS, pruneExpiredSessions, pruneGhosts, sweepEmptySessions } from './sweep-sessions';
import { withWorkLock } from './work-lock';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const NOW = Date.UTC(2030, 0, 1);
const LONG_AGO = NOW - 400 * DAY_MS;
const INDEX_URL = 'https://plugins.test/session-index.js';

type Deletion = HookPayload<'on_session_delete'>;

let t: ReturnType<typeof makeHost>;
let ctx: SessionContext;
let events: Deletion[];
let others: string[];

// The example sidecar plugin in the page and across the isolation boundary, as plugins run in the app.
describe.each(RUNNER_KINDS)('deleting sessions with session-index loaded (%s)', (kind) => {
	beforeEach(async () => {
		t = makeHost(1000, {}, undefined, kind);
		t.served[INDEX_URL] = { body: readFileSync(resolve(ROOT, 'static/plugins/session-index.js'), 'utf8') };
		expect(await t.host.load(await t.row(INDEX_URL))).toMatchObject({ ok: true });
		events = [];
		others = [];
		t.hooks.register('spy', 'on_session_delete', (payload) => void events.push(structuredClone(payload) as Deletion));
		for (const name of ['on_session_start', 'on_session_end', 'on_session_finalize', 'on_session_reset'] as const) {
			t.hooks.register('spy', name, () => void others.push(name));
		}
		ctx = { db: t.db, hooks: t.hooks, profile: 'default', platform: 'web', now: () => NOW };
	});

	afterEach(() => t.close());

	/** A new session through the session layer (so session-index files its sidecar), then shaped for the case. */
	async function session(changes: Partial<SessionRow> = {}): Promise<string> {
		const row = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
		await t.db.sessions.update(row.id, changes);
		return row.id;
	}

	async function say(id: string, at = NOW): Promise<void> {
		await appendMessages(t.db, id, [{ id: crypto.randomUUID(), role: 'user', kind: 'message', content: 'hello', status: 'complete', created_at: at }], at);
	}

	/**
	 * One conversation compacted twice (a → b → c), a sub-agent session of c (d), a branch of b
	 * (e), and an unrelated session (f). `shape` makes the lineage and the sub-agent fit a reason;
	 * e and f are shaped so that they never do.
	 */
	async function family(shape: Partial<SessionRow> = {}, { messages = true } = {}) {
		const ended = { ended_at: LONG_AGO, end_reason: 'compression' };
		const a = await session({ ...shape, ...ended });
		const b = await session({ ...shape, ...ended, parent_session_id: a, parent_kind: 'compression' });
		const c = await session({ ...shape, parent_session_id: b, parent_kind: 'compression' });
		const d = await session({ ...shape, parent_session_id: c, parent_kind: 'delegate' });
		const e = await session({ parent_session_id: b, parent_kind: 'branch', title: 'My branch', title_source: 'user' });
		const f = await session({ title: 'Unrelated', title_source: 'user' });
		if (messages) for (const id of [a, b, c, d]) await say(id, shape.last_activity_at ?? NOW);
		await say(e);
		await say(f);
		await t.hooks.settled();
		return { a, b, c, d, e, f, lineage: [a, b, c, d].sort() };
	}

	const sidecars = async () => (await kvKeys(t.db, 'session-index')).map((key) => key.slice('session:'.length)).sort();

	async function settledEvents(): Promise<Deletion[]> {
		await t.hooks.settled();
		return events;
	}

	describe('one event per operation, whatever the path', () => {
		interface Case {
			reason: Deletion['reason'];
			/** Shapes the lineage so that this path takes it. */
			shape: Partial<SessionRow>;
			messages?: boolean;
			run: (f: Awaited<ReturnType<typeof family>>) => Promise<unknown>;
			/** The event's session_id, when the path has a target. */
			target?: (f: Awaited<ReturnType<typeof family>>) => string;
		}
		const work = `palimpsest-work-${crypto.randomUUID()}`;
		const cases: Case[] = [
			{ reason: 'delete', shape: {}, run: (f) => deleteSessions(ctx, [f.b]), target: (f) => f.b },
			{ reason: 'archive', shape: {}, run: (f) => archiveSessions(ctx, [f.c]), target: (f) => f.c },
			{ reason: 'empty_sweep', shape: { ended_at: LONG_AGO, end_reason: 'exit' }, messages: false, run: () => sweepEmptySessions(ctx, new Set()) },
			{ reason: 'prune', shape: { ended_at: LONG_AGO, end_reason: 'exit', last_activity_at: LONG_AGO }, run: () => pruneExpiredSessions(ctx, 90, new Set()) },
			{ reason: 'ghost_prune', shape: { last_activity_at: NOW - 2 * DAY_MS }, messages: false, run: () => pruneGhosts(ctx, new Set()) },
			{
				reason: 'profile_repair',
				shape: { profile: 'work' },
				run: () => repairProfiles(ctx, ['default', 'work'], () => new PalimpsestDb(work))
			}
		];

		it.each(cases)('$reason: one event naming the lineage and its sub-agent; the branch stays; sidecars follow', async (c) => {
			const f = await family(c.shape, { messages: c.messages ?? true });
			const before = await sidecars();
			expect(before).toEqual([f.a, f.b, f.c, f.d, f.e, f.f].sort());
			others = [];
			await c.run(f);

			const [event, ...more] = await settledEvents();
			expect(more).toEqual([]);
			expect(event).toEqual({
				session_id: c.target ? c.target(f) : expect.any(String),
				reason: c.reason,
				profile: 'default',
				deleted_ids: expect.any(Array),
				sessions_dir: null
			});
			expect([...event.deleted_ids!].sort()).toEqual(f.lineage);
			expect(f.lineage).toContain(event.session_id);

			const left = (await t.db.sessions.toArray()).map((row) => row.id).sort();
			if (c.reason === 'archive') {
				expect(left).toEqual(before);
				const archived = (await t.db.sessions.where('archived').equals(1).primaryKeys()).sort();
				expect(archived).toEqual(f.lineage);
				// The branch keeps its parent and stays in the list; session-index flags, never drops.
				expect(await t.db.sessions.get(f.e)).toMatchObject({ archived: 0, parent_session_id: f.b });
				expect(await sidecars()).toEqual(before);
				for (const id of f.lineage) expect(await kvGet(t.db, 'session-index', `session:${id}`)).toMatchObject({ archived: true });
			} else {
				expect(left).toEqual([f.e, f.f].sort());
				expect(await t.db.sessions.get(f.e)).toMatchObject({ parent_session_id: null, parent_kind: null });
				for (const id of f.lineage) expect(await listMessages(t.db, id)).toEqual([]);
				expect(await sidecars()).toEqual([f.e, f.f].sort());
				// What went is on record under the operation's id.
				const receipts = await t.db.receipts.toArray();
				expect(receipts).toHaveLength(1);
				expect(receipts[0]).toMatchObject({ reason: c.reason, detached_ids: [f.e] });
				expect([...receipts[0].session_ids].sort()).toEqual(f.lineage);
			}
			if (c.reason === 'profile_repair') {
				const target = new PalimpsestDb(work);
				try {
					expect((await target.sessions.toArray()).map((row) => row.id).sort()).toEqual(f.lineage);
					for (const id of f.lineage) expect(await listMessages(target, id)).toHaveLength(1);
				} finally {
					await target.delete();
				}
			}
			// Only on_session_delete: no path starts (adoption included), ends or resets a session on the way.
			expect(others).toEqual([]);
		});
	});

	describe('what stays quiet', () => {
		it('archiving twice announces once; unarchiving and archiving again announce again', async () => {
			const id = await session();
			await archiveSessions(ctx, [id]);
			await archiveSessions(ctx, [id]);
			expect(await settledEvents()).toEqual([{ session_id: id, reason: 'archive', profile: 'default', sessions_dir: null }]);
			expect(await unarchiveSessions(ctx, [id])).toEqual([id]);
			expect(await settledEvents()).toHaveLength(1);
			await archiveSessions(ctx, [id]);
			expect(await settledEvents()).toHaveLength(2);
		});

		it('auto-archive of idle sessions is quiet and leaves pinned and recent ones', async () => {
			const idle = await session({ last_activity_at: LONG_AGO });
			const pinned = await session({ last_activity_at: LONG_AGO, pinned: 1 });
			const recent = await session();
			expect(await autoArchiveIdleSessions(ctx, 30, new Set())).toEqual([idle]);
			expect(await autoArchiveIdleSessions(ctx, 0, new Set())).toEqual([]);
			expect((await t.db.sessions.get(pinned))?.archived).toBe(0);
			expect((await t.db.sessions.get(recent))?.archived).toBe(0);
			expect(await settledEvents()).toEqual([]);
		});

		it('profile adoption is quiet: the moved session is not announced as new, only its removal here is', async () => {
			const work = `palimpsest-work-${crypto.randomUUID()}`;
			const misfiled = await session({ profile: 'work' });
			await say(misfiled);
			await t.hooks.settled();
			others = [];
			const report = await repairProfiles(ctx, ['default', 'work'], () => new PalimpsestDb(work));
			expect(report).toEqual({ moved: { work: 1 }, busy: 0, unknown: 0 });
			expect(await settledEvents()).toEqual([{ session_id: misfiled, reason: 'profile_repair', profile: 'default', sessions_dir: null }]);
			expect(others).toEqual([]);
			// Run again (as after a repair interrupted between copy and delete): nothing more happens.
			expect(await repairProfiles(ctx, ['default', 'work'], () => new PalimpsestDb(work))).toEqual({ moved: {}, busy: 0, unknown: 0 });
			expect(await settledEvents()).toHaveLength(1);
			await new PalimpsestDb(work).delete();
		});

		it('repair leaves sessions of unknown profiles, and sessions in use, where they are', async () => {
			const lost = await session({ profile: 'gone' });
			const open = await session({ profile: 'work' });
			const work = `palimpsest-work-${crypto.randomUUID()}`;
			// "open" stands for a session another tab shows: repairs take the lock query's answer.
			const report = await withWorkLock('default', open, { kind: 'turn' }, () =>
				repairProfiles(ctx, ['default', 'work'], () => new PalimpsestDb(work))
			);
			expect(report).toEqual({ moved: {}, busy: 1, unknown: 1 });
			expect((await t.db.sessions.bulkGet([lost, open])).every(Boolean)).toBe(true);
			expect(await settledEvents()).toEqual([]);
			await new PalimpsestDb(work).delete();
		});

		it('an exact retry returns the stored receipt, removes nothing more and announces nothing', async () => {
			const id = await session();
			const row = (await t.db.sessions.get(id))!;
			const first = await deleteSessions(ctx, [id], 'op-1');
			expect(first).toMatchObject({ op_id: 'op-1', ids: [id], replayed: false });
			// The same session comes back (an import); a replay of op-1 (a second tab, a retry) leaves it.
			await t.db.sessions.add(row);
			expect(await deleteSessions(ctx, [id], 'op-1')).toEqual({ ...first, replayed: true });
			expect(await t.db.sessions.get(id)).toBeDefined();
			expect(await settledEvents()).toHaveLength(1);

			const archived = await session();
			await archiveSessions(ctx, [archived], 'op-2');
			await unarchiveSessions(ctx, [archived]);
			expect(await archiveSessions(ctx, [archived], 'op-2')).toMatchObject({ replayed: true, ids: [archived] });
			expect((await t.db.sessions.get(archived))?.archived).toBe(0);
			expect(await settledEvents()).toHaveLength(2);
		});

		it('a deletion of nothing (already gone) writes its receipt and announces nothing', async () => {
			const outcome = await deleteSessions(ctx, ['never-was'], 'op-3');
			expect(outcome).toMatchObject({ ids: [], replayed: false });
			expect(await t.db.receipts.get('op-3')).toMatchObject({ session_ids: [] });
			expect(await settledEvents()).toEqual([]);
		});
	});

	describe('the deletion stands', () => {
		it('when an on_session_delete callback throws, and later callbacks still run', async () => {
			const [first, second] = [await session(), await session()];
			t.hooks.setPluginOrder(['thrower', 'session-index', 'spy']);
			t.hooks.register('thrower', 'on_session_delete', () => {
				throw new Error('plugin bug');
			});
			const outcome = await deleteSessions(ctx, [first, second]);
			expect(outcome.ids.sort()).toEqual([first, second].sort());
			expect(await settledEvents()).toHaveLength(1);
			expect(await t.db.sessions.bulkGet([first, second])).toEqual([undefined, undefined]);
			expect(await sidecars()).toEqual([]);
		});

		it('against this tab’s own work on the session: it is stopped first, and no late write brings it back', async () => {
			const id = await session();
			await say(id);
			let abortedBeforeCommit: boolean | null = null;
			const turn = withWorkLock('default', id, { kind: 'turn' }, async (signal) => {
				await new Promise((done) => signal.addEventListener('abort', done));
				abortedBeforeCommit = (await t.db.sessions.get(id)) !== undefined;
			});
			await deleteSessions(ctx, [id]);
			await turn;
			expect(abortedBeforeCommit).toBe(true);
			await expect(appendMessages(t.db, id, [{ id: 'late', role: 'assistant', kind: 'message', content: 'late', status: 'complete', created_at: NOW }])).rejects.toThrow(/no longer exists/);
			expect(await t.db.sessions.get(id)).toBeUndefined();
			expect(await listMessages(t.db, id)).toEqual([]);
		});
	});
});
