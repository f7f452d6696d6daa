// A sweep looks (which sessions qualify, which are busy) and then writes. Another tab may open
// a chosen session, start work on it or change it in between: the sweep must then keep it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PalimpsestDb } from '../db/database';
import type { SessionRow } from '../db/schema';
import { HookBus } from '../hooks/hook-bus';
import { buildSessionRow } from './build-session-row';
import type { SessionContext } from './session-context';
import { DAY_MS, pruneExpiredSessions, sweepEmptySessions } from './sweep-sessions';
import { afterFamilyRead } from './test-read-family';
import { installFakeLocks, type FakeLockManager } from './test-locks';
import { busySessions } from './work-lock';

// Another tab writes right after the sweep read the family of what it chose: the worst moment.
vi.mock('./read-family', async (importOriginal) => (await import('./test-read-family')).pausingReadFamily(await importOriginal()));

const NOW = Date.UTC(2030, 0, 1);
const OLD = NOW - 200 * DAY_MS;
const PROFILE = 'default';

let db: PalimpsestDb;
let ctx: SessionContext;
let locks: FakeLockManager;
let hooks: HookBus;
let deletions: unknown[];
beforeEach(() => {
	db = new PalimpsestDb(`sweep-races-${crypto.randomUUID()}`);
	hooks = new HookBus();
	deletions = [];
	hooks.register('spy', 'on_session_delete', (payload) => void deletions.push(payload));
	ctx = { db, hooks, profile: PROFILE, platform: 'web', now: () => NOW };
	locks = installFakeLocks();
	afterFamilyRead.hook = null;
});
afterEach(async () => {
	vi.unstubAllGlobals();
	db.close();
	await db.delete();
});

async function add(id: string, changes: Partial<SessionRow> = {}): Promise<void> {
	await db.sessions.add({ ...buildSessionRow(ctx, { provider: 'offline', model: 'm' }, id), ended_at: OLD, end_reason: 'exit', last_activity_at: OLD, ...changes });
}

/** Another tab takes a lock of the session and keeps it until `release`. */
function takeElsewhere(name: string, mode: 'shared' | 'exclusive') {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	void locks.request(name, { mode }, () => released);
	return release;
}

const ids = async () => (await db.sessions.toCollection().primaryKeys()).sort();

describe('a sweep racing another tab', () => {
	it.each([
		['opens', `palimpsest-open:${PROFILE}:empty`, 'shared'],
		['starts work on', `palimpsest-work:${PROFILE}:empty`, 'exclusive']
	] as const)('keeps an empty session that another tab %s right after the sweep read the locks', async (_, lock, mode) => {
		await add('empty');
		let release: () => void = () => {};
		// The lock manager has answered "nothing is busy"; the sweep has not heard it yet.
		locks.beforeAnswer = async () => {
			release = takeElsewhere(lock, mode);
		};
		const { working, open } = await busySessions(PROFILE);
		expect([...working, ...open]).toEqual([]);

		const outcome = await sweepEmptySessions(ctx, new Set([...working, ...open]));
		expect(outcome.ids).toEqual([]);
		expect(await ids()).toEqual(['empty']);
		await hooks.settled();
		expect(deletions).toEqual([]);

		// Once that tab lets go, the next pass takes it, announced once.
		release();
		expect((await sweepEmptySessions(ctx, new Set())).ids).toEqual(['empty']);
		expect(await ids()).toEqual([]);
		await hooks.settled();
		expect(deletions).toEqual([expect.objectContaining({ session_id: 'empty', reason: 'empty_sweep' })]);
	});

	it('keeps a session pinned in another tab after the retention sweep chose it', async () => {
		await add('old');
		afterFamilyRead.hook = async () => {
			await db.sessions.update('old', { pinned: 1 });
		};
		const outcome = await pruneExpiredSessions(ctx, 90, new Set());
		expect(outcome).toMatchObject({ ids: [], op_id: '' });
		expect(await ids()).toEqual(['old']);
		expect(await db.receipts.count()).toBe(0);
		await hooks.settled();
		expect(deletions).toEqual([]);
	});
});
