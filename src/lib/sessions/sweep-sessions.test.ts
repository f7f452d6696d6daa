// What each sweep takes and, as much, what it leaves: sessions in use, lineages that are not
// wholly eligible, conversations, titled or recent rows.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { appendMessages } from '../db/message-verbs';
import type { MessageRow, SessionRow } from '../db/schema';
import { HookBus } from '../hooks/hook-bus';
import type { HookPayload } from '../hooks/hook-map';
import { buildSessionRow } from './build-session-row';
import { describeMaintenance, runMaintenance } from './run-maintenance';
import type { SessionContext } from './session-context';
import { DAY_MS, pruneExpiredSessions, pruneGhosts, sweepEmptySessions } from './sweep-sessions';
import { testPosition } from '../db/test-position';

const NOW = Date.UTC(2030, 0, 1);
const OLD = NOW - 200 * DAY_MS;
const NONE = new Set<string>();

let db: PalimpsestDb;
let ctx: SessionContext;
let events: HookPayload<'on_session_delete'>[];
let hooks: HookBus;

beforeEach(() => {
	db = new PalimpsestDb(`sweep-${crypto.randomUUID()}`);
	hooks = new HookBus();
	events = [];
	hooks.register('spy', 'on_session_delete', (payload) => void events.push(payload as HookPayload<'on_session_delete'>));
	ctx = { db, hooks, profile: 'default', platform: 'web', now: () => NOW };
});
afterEach(() => db.delete());

async function add(id: string, changes: Partial<SessionRow> = {}): Promise<string> {
	await db.sessions.add({ ...buildSessionRow(ctx, { provider: 'offline', model: 'm' }, id), ...changes });
	return id;
}

function message(role: MessageRow['role'], kind: MessageRow['kind'] = 'message') {
	return { id: crypto.randomUUID(), role, kind, content: 'x', status: 'complete' as const, created_at: OLD };
}

const ids = async () => (await db.sessions.toCollection().primaryKeys()).sort();
const ended = { ended_at: OLD, end_reason: 'exit' };

describe('empty_sweep', () => {
	it('takes ended sessions without a user or assistant message, and nothing else', async () => {
		await add('empty', ended);
		await add('commands-only', ended);
		await appendMessages(db, 'commands-only', [message('user', 'command'), message('assistant', 'command')], OLD);
		await add('talked', ended);
		await appendMessages(db, 'talked', [message('user')], OLD);
		await add('open-ended');
		await add('archived', { ...ended, archived: 1 });
		await add('shown', ended);
		const outcome = await sweepEmptySessions(ctx, new Set(['shown']));
		expect(outcome.ids.sort()).toEqual(['commands-only', 'empty']);
		expect(await ids()).toEqual(['archived', 'open-ended', 'shown', 'talked']);
		await hooks.settled();
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ reason: 'empty_sweep', deleted_ids: expect.arrayContaining(['commands-only', 'empty']) });
	});

	it('never takes an empty link whose lineage holds the conversation', async () => {
		// A rotation child that ended before saying anything: removing it would take its parent.
		await add('parent', { ...ended, end_reason: 'compression' });
		await appendMessages(db, 'parent', [message('user')], OLD);
		await add('child', { ...ended, parent_session_id: 'parent', parent_kind: 'compression' });
		expect((await sweepEmptySessions(ctx, NONE)).ids).toEqual([]);
		expect(await ids()).toEqual(['child', 'parent']);
	});

	it('announces nothing when nothing qualifies', async () => {
		await add('live');
		await sweepEmptySessions(ctx, NONE);
		await hooks.settled();
		expect(events).toEqual([]);
		expect(await db.receipts.count()).toBe(0);
	});
});

describe('prune', () => {
	it('takes ended, unpinned sessions idle past the retention days; 0 turns it off', async () => {
		await add('old', { ...ended, last_activity_at: OLD });
		await add('pinned', { ...ended, last_activity_at: OLD, pinned: 1 });
		await add('not-ended', { last_activity_at: OLD });
		await add('recent', { ...ended, last_activity_at: NOW - 10 * DAY_MS });
		expect((await pruneExpiredSessions(ctx, 0, NONE)).ids).toEqual([]);
		expect((await pruneExpiredSessions(ctx, 90, NONE)).ids).toEqual(['old']);
		expect(await ids()).toEqual(['not-ended', 'pinned', 'recent']);
	});

	it('takes a compression lineage only as a whole: never while its latest link is recent or busy', async () => {
		await add('root', { ...ended, end_reason: 'compression', last_activity_at: OLD });
		await add('head', { parent_session_id: 'root', parent_kind: 'compression', ...ended, last_activity_at: NOW - DAY_MS });
		expect((await pruneExpiredSessions(ctx, 90, NONE)).ids).toEqual([]);
		await db.sessions.update('head', { last_activity_at: OLD });
		expect((await pruneExpiredSessions(ctx, 90, new Set(['head']))).ids).toEqual([]);
		expect((await pruneExpiredSessions(ctx, 90, NONE)).ids.sort()).toEqual(['head', 'root']);
	});
});

describe('ghost_prune', () => {
	it('takes empty untitled rows older than a day that no tab shows, and messages without a session', async () => {
		await add('ghost', { last_activity_at: NOW - 2 * DAY_MS });
		await add('young', { last_activity_at: NOW - 3600_000 });
		await add('titled', { last_activity_at: NOW - 2 * DAY_MS, title: 'Plan', title_source: 'user' });
		await add('shown', { last_activity_at: NOW - 2 * DAY_MS });
		// Message rows whose session row is gone, on both sides of the stored ids in key order.
		await db.messages.bulkAdd([
			{ ...message('user'), session_id: 'aaa-leftover', seq: 0, position: testPosition(0), active: 1, compacted_by: null },
			{ ...message('user'), session_id: 'zzz-leftover', seq: 0, position: testPosition(0), active: 1, compacted_by: null },
			{ ...message('assistant'), session_id: 'zzz-leftover', seq: 1, position: testPosition(1), active: 1, compacted_by: null }
		]);
		const outcome = await pruneGhosts(ctx, new Set(['shown']));
		expect([...outcome.ids].sort()).toEqual(['aaa-leftover', 'ghost', 'zzz-leftover']);
		expect(await ids()).toEqual(['shown', 'titled', 'young']);
		expect(await db.messages.count()).toBe(0);
		await hooks.settled();
		expect(events).toEqual([
			{ session_id: 'ghost', reason: 'ghost_prune', profile: 'default', deleted_ids: outcome.ids, sessions_dir: null }
		]);
	});
});

describe('a maintenance pass', () => {
	it('runs every sweep once, keeps the session the tab shows, and says what it did', async () => {
		await add('empty', ended);
		await add('kept', ended);
		await add('expired', { ...ended, last_activity_at: OLD });
		await appendMessages(db, 'expired', [message('user')], OLD);
		const report = await runMaintenance(ctx, { retentionDays: 90, autoArchiveDays: 0, keep: ['kept'] });
		expect(report).toEqual({ ghosts: 0, empty: 1, pruned: 1, archived: 0 });
		expect(describeMaintenance(report!)).toBe('Removed 1 empty session and 1 session past the retention period.');
		expect(describeMaintenance({ ghosts: 0, empty: 0, pruned: 0, archived: 0 })).toBe('');
		expect(await ids()).toEqual(['kept']);
		await hooks.settled();
		expect(events.map((e) => e.reason)).toEqual(['empty_sweep', 'prune']);
	});

	it('forgets receipts once no retry can come', async () => {
		await db.receipts.bulkAdd([
			{ op_id: 'old', reason: 'delete', session_id: 's', session_ids: ['s'], detached_ids: [], at: OLD },
			{ op_id: 'new', reason: 'delete', session_id: 't', session_ids: ['t'], detached_ids: [], at: NOW }
		]);
		await runMaintenance(ctx, { retentionDays: 0, autoArchiveDays: 0 });
		expect(await db.receipts.toCollection().primaryKeys()).toEqual(['new']);
	});
});
