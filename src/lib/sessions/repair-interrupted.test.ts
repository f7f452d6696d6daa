import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { simulateFullDisk } from '../db/test-full-disk';
import { createSession } from './session-lifecycle';
import { INTERRUPTED_REASON, InterruptedWatch, repairInterruptedAnswers } from './repair-interrupted';
import { installFakeLocks, type FakeLockManager } from './test-locks';
import { workLockName } from './work-lock';

let db: PalimpsestDb;
let locks: FakeLockManager;
beforeEach(() => {
	db = new PalimpsestDb(`repair-${crypto.randomUUID()}`);
	locks = installFakeLocks();
});
afterEach(async () => {
	vi.unstubAllGlobals();
	db.close();
	await db.delete();
});

const PROFILE = 'default';
const target = () => ({ db, profile: PROFILE });

async function sessionWithAnswer(status: 'streaming' | 'complete', content = 'half an answer') {
	const session = await createSession({ db, profile: PROFILE, platform: 'web' }, { provider: 'offline', model: 'offline-mini' });
	await appendMessages(db, session.id, [
		{ id: crypto.randomUUID(), role: 'user', content: 'question', status: 'complete', kind: 'message', created_at: 1 },
		{ id: crypto.randomUUID(), role: 'assistant', content, status, kind: 'message', created_at: 2 }
	]);
	return session.id;
}

/** From now on, every write fails as on a full disk, until the returned function is called. */
async function fillDisk(): Promise<() => void> {
	const disk = await simulateFullDisk(db);
	disk.fill();
	return disk.free;
}

/** Another tab holding the session's turn lock until `release` is called. */
function holdElsewhere(sessionId: string) {
	let release!: () => void;
	const released = new Promise<void>((r) => (release = r));
	let granted!: () => void;
	const holding = new Promise<void>((r) => (granted = r));
	void locks.request(workLockName(PROFILE, sessionId), { mode: 'exclusive' }, async () => {
		granted();
		await released;
	});
	return { holding, release };
}

describe('repairing answers a closed tab left streaming', () => {
	it('marks them incomplete with the reason and their text, and leaves sessions whose turn lock is held', async () => {
		const orphan = await sessionWithAnswer('streaming');
		const alive = await sessionWithAnswer('streaming', 'still coming');
		const finished = await sessionWithAnswer('complete', 'done');
		const other = holdElsewhere(alive);
		await other.holding;

		expect(await repairInterruptedAnswers(target())).toEqual({ repaired: 1, busy: 1, error: null });
		expect((await listMessages(db, orphan))[1]).toMatchObject({ status: 'incomplete', content: 'half an answer', error: INTERRUPTED_REASON });
		expect((await listMessages(db, alive))[1]).toMatchObject({ status: 'streaming', content: 'still coming' });
		expect((await listMessages(db, finished))[1]).toMatchObject({ status: 'complete' });
		expect((await listMessages(db, finished))[1].error).toBeUndefined();
		other.release();
	});

	it('never marks an answer whose turn lock a tab takes between the repair looking and writing', async () => {
		const sessionId = await sessionWithAnswer('streaming', 'left by a closed tab');
		const name = workLockName(PROFILE, sessionId);
		// At the repair's first question to the lock manager, another tab starts a turn on the
		// same session: it takes the lock and stores its new answer as streaming.
		let releaseTurn!: () => void;
		const turnEnds = new Promise<void>((r) => (releaseTurn = r));
		let turnStarted!: () => void;
		const started = new Promise<void>((r) => (turnStarted = r));
		locks.beforeAnswer = async () => {
			const queued = locks.request(name, { mode: 'exclusive' }, async () => {
				await appendMessages(db, sessionId, [
					{ id: 'live', role: 'assistant', content: 'being written', status: 'streaming', kind: 'message', created_at: 3 }
				]);
				turnStarted();
				await turnEnds;
			});
			void queued;
			// The turn either runs now (the lock was free) or waits for the repair to let go.
			if (!locks.isPending(name)) await started;
		};

		const report = await repairInterruptedAnswers(target());
		await started;
		const rows = await listMessages(db, sessionId);
		expect(rows.find((row) => row.id === 'live')).toMatchObject({ status: 'streaming', content: 'being written' });
		// The repair held the lock first, so the row it found was repaired before the turn began.
		expect(report).toEqual({ repaired: 1, busy: 0, error: null });
		expect(rows[1]).toMatchObject({ status: 'incomplete', content: 'left by a closed tab' });
		releaseTurn();
	});

	it('reports a repair that storage refuses instead of throwing', async () => {
		const sessionId = await sessionWithAnswer('streaming');
		await fillDisk();
		const report = await repairInterruptedAnswers(target());
		expect(report.repaired).toBe(0);
		expect((report.error as Error).name).toBe('QuotaExceededError');
		expect((await listMessages(db, sessionId))[1].status).toBe('streaming');
	});
});

describe('a tab showing a session whose answering tab went away', () => {
	it('repairs the answer as soon as that tab lets go of the turn lock, and not before', async () => {
		const sessionId = await sessionWithAnswer('streaming', 'cut off here');
		const other = holdElsewhere(sessionId);
		await other.holding;
		const watch = new InterruptedWatch(target(), 20);
		watch.follow(sessionId, true);
		await new Promise((r) => setTimeout(r, 100));
		expect((await listMessages(db, sessionId))[1].status).toBe('streaming');

		other.release();
		await vi.waitFor(async () => {
			expect((await listMessages(db, sessionId))[1]).toMatchObject({ status: 'incomplete', content: 'cut off here', error: INTERRUPTED_REASON });
		});
		watch.stop();
	});

	it('keeps trying while storage refuses the repair, and lands it once storage works', async () => {
		const sessionId = await sessionWithAnswer('streaming');
		const free = await fillDisk();
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const watch = new InterruptedWatch(target(), 20);
		watch.follow(sessionId, true);
		await vi.waitFor(() => expect(warn).toHaveBeenCalled());
		free();
		await vi.waitFor(async () => expect((await listMessages(db, sessionId))[1].status).toBe('incomplete'));
		watch.stop();
	});
});
