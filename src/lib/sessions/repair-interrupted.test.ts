import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { simulateFullDisk } from '../db/test-full-disk';
import { createSession } from './session-lifecycle';
import { INTERRUPTED_REASON, watchInterruptedAnswers } from './repair-interrupted';
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

/** Starts the watch a tab runs from start-up on; stopped after each test. */
let stopWatch: () => void = () => {};
afterEach(() => stopWatch());
function watchAnswers(options: { skip?: (id: string) => boolean } = {}) {
	stopWatch = watchInterruptedAnswers(target(), { intervalMs: 20, ...options });
}

const statusOf = async (sessionId: string, index = 1) => (await listMessages(db, sessionId))[index]?.status;

describe('answers a closed tab left streaming', () => {
	it('are marked incomplete with the reason and their text; an answer whose turn lock a tab holds is not, until that tab lets go', async () => {
		const orphan = await sessionWithAnswer('streaming');
		const alive = await sessionWithAnswer('streaming', 'still coming');
		const finished = await sessionWithAnswer('complete', 'done');
		const other = holdElsewhere(alive);
		await other.holding;

		watchAnswers();
		await vi.waitFor(async () => {
			expect((await listMessages(db, orphan))[1]).toMatchObject({ status: 'incomplete', content: 'half an answer', error: INTERRUPTED_REASON });
		});
		await new Promise((r) => setTimeout(r, 100));
		expect((await listMessages(db, alive))[1]).toMatchObject({ status: 'streaming', content: 'still coming' });
		expect((await listMessages(db, finished))[1]).toMatchObject({ status: 'complete' });
		expect((await listMessages(db, finished))[1].error).toBeUndefined();

		other.release();
		await vi.waitFor(async () => expect(await statusOf(alive)).toBe('incomplete'));
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
		let turn: Promise<void> = Promise.resolve();
		locks.beforeAnswer = async () => {
			turn = locks.request(name, { mode: 'exclusive' }, async () => {
				const [row] = await appendMessages(db, sessionId, [
					{ id: 'live', role: 'assistant', content: 'being written', status: 'streaming', kind: 'message', created_at: 3 }
				]);
				turnStarted();
				await turnEnds;
				// The turn stores its answer before it lets go of the lock, as a turn does.
				await db.messages.update([row.session_id, row.seq], { status: 'complete' });
			});
			// The turn either runs now (the lock was free) or waits for the repair to let go.
			if (!locks.isPending(name)) await started;
		};

		watchAnswers();
		await started;
		await new Promise((r) => setTimeout(r, 100));
		const live = async () => (await listMessages(db, sessionId)).find((row) => row.id === 'live');
		expect(await live()).toMatchObject({ status: 'streaming', content: 'being written' });
		releaseTurn();
		await turn;
		// Once the turn let go, the answer it left behind is repaired; its own answer is as it stored it.
		await vi.waitFor(async () => expect(await statusOf(sessionId)).toBe('incomplete'));
		expect(await live()).toMatchObject({ status: 'complete' });
	});

	it('are marked once storage takes the write, when storage refused it at first', async () => {
		const sessionId = await sessionWithAnswer('streaming');
		const free = await fillDisk();
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		watchAnswers();
		await vi.waitFor(() => expect(warn).toHaveBeenCalled());
		expect(await statusOf(sessionId)).toBe('streaming');
		free();
		await vi.waitFor(async () => expect(await statusOf(sessionId)).toBe('incomplete'));
	});

	it('are left to this tab when it keeps the answer in memory to store it itself', async () => {
		const mine = await sessionWithAnswer('streaming');
		const orphan = await sessionWithAnswer('streaming');
		watchAnswers({ skip: (id) => id === mine });
		await vi.waitFor(async () => expect(await statusOf(orphan)).toBe('incomplete'));
		expect(await statusOf(mine)).toBe('streaming');
	});
});
