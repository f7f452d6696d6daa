// What an answer's request carried (its system prompt, tools and target, stored once as a frame
// many answers share) lives as long as some answer refers to it: deleting the conversations
// that used a frame removes it, while a frame another conversation uses stays and still shows.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordRequest } from '../agent/record-request';
import { runTurn } from '../agent/run-turn';
import { createOfflineProvider } from '../providers/offline';
import { archiveSessions } from '../sessions/archive-sessions';
import { branchSession } from '../sessions/branch-session';
import { deleteSessions, removeChosenSessions } from '../sessions/delete-sessions';
import { repairProfiles } from '../sessions/repair-profiles';
import { createSession } from '../sessions/session-lifecycle';
import type { SessionContext } from '../sessions/session-context';
import { loadSentRequest } from '../state/messages/sent-request';
import type { Services } from '../state/app/services';
import { PalimpsestDb } from './database';
import { appendMessages, deleteMessages, listMessages } from './message-verbs';
import { REQUEST_FRAME_PREFIX } from './request-frames';

let db: PalimpsestDb;
let ctx: SessionContext;
beforeEach(() => {
	db = new PalimpsestDb(`frames-${crypto.randomUUID()}`);
	ctx = { db, profile: 'default', platform: 'web' };
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const provider = createOfflineProvider({ delayMs: 0, sleep: async () => {} });
const deps = (systemPrompt: string) => ({ db, provider, model: 'offline-mini', profile: 'default', platform: 'web', systemPrompt, checkpointMs: 0 });

/** A session with one exchange, its answer sent with `systemPrompt`. */
async function conversation(systemPrompt: string): Promise<string> {
	const { id } = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
	await runTurn(deps(systemPrompt), { sessionId: id, text: `Hello under ${systemPrompt}` });
	return id;
}

/** The system prompts of every stored frame, in order. */
async function storedPrompts(): Promise<string[]> {
	const rows = await db.settings.where('key').startsWith(REQUEST_FRAME_PREFIX).toArray();
	return rows.map((row) => (row.value as { system: string }).system).sort();
}

async function lastAnswer(sessionId: string, from = db) {
	return (await listMessages(from, sessionId)).findLast((row) => row.role === 'assistant')!;
}

/** "What the model received" for the last answer of a session, as the dialog loads it. */
async function received(sessionId: string, from = db) {
	const worker = { estimate: async () => ({ total: 1 }) } as unknown as Services['worker'];
	return loadSentRequest({ db: from, worker, readsImages: () => true }, await lastAnswer(sessionId, from));
}

describe('request frames and deletion', () => {
	it('deleting the only conversation that used a frame removes what it sent', async () => {
		const id = await conversation('Private prompt');
		expect(await storedPrompts()).toEqual(['Private prompt']);
		await deleteSessions(ctx, [id]);
		expect(await storedPrompts()).toEqual([]);
		expect(JSON.stringify(await db.settings.toArray())).not.toContain('Private prompt');
	});

	it('keeps a frame another conversation still uses, and that answer still shows what the model received', async () => {
		const kept = await conversation('Shared prompt');
		const gone = await conversation('Shared prompt');
		const alone = await conversation('Only here');
		expect(await storedPrompts()).toEqual(['Only here', 'Shared prompt']);
		await deleteSessions(ctx, [gone, alone]);
		expect(await storedPrompts()).toEqual(['Shared prompt']);
		const view = await received(kept);
		expect(view.parts[0]).toMatchObject({ label: 'System prompt', text: 'Shared prompt' });
		expect(view.exact).toBe(true);
	});

	it('archiving keeps what archived conversations sent', async () => {
		const id = await conversation('Archived prompt');
		await archiveSessions(ctx, [id]);
		expect(await storedPrompts()).toEqual(['Archived prompt']);
		expect((await received(id)).parts[0].text).toBe('Archived prompt');
	});

	it('removes the frames of message rows a sweep finds without their session', async () => {
		const id = await conversation('Left behind');
		await db.sessions.delete(id);
		await removeChosenSessions(ctx, 'ghost_prune', [], [id]);
		expect(await storedPrompts()).toEqual([]);
	});

	it('Retry removes the frame of the answer it drops when nothing else used it', async () => {
		const id = await conversation('Before the change');
		await runTurn(deps('After the change'), { sessionId: id, text: 'Again' });
		await deleteMessages(db, id, [(await lastAnswer(id)).seq]);
		expect(await storedPrompts()).toEqual(['Before the change']);
	});

	it('a branch keeps what its answers were sent with after the original is deleted', async () => {
		const source = await conversation('Branched prompt');
		const branch = await branchSession(ctx, source, (await lastAnswer(source)).seq);
		await deleteSessions(ctx, [source]);
		expect((await received(branch.id)).parts[0].text).toBe('Branched prompt');
	});

	it('Repair profiles moves what a misfiled conversation sent along with it', async () => {
		const id = await conversation('Misfiled prompt');
		await db.sessions.update(id, { profile: 'work' });
		const work = `frames-work-${crypto.randomUUID()}`;
		await repairProfiles(ctx, ['default', 'work'], () => new PalimpsestDb(work));
		expect(await storedPrompts()).toEqual([]);
		const there = new PalimpsestDb(work);
		try {
			expect((await received(id, there)).parts[0].text).toBe('Misfiled prompt');
		} finally {
			there.close();
			await there.delete();
		}
	});
});

describe('an answer written while its frame is swept', () => {
	it('stores the frame again with the answer, so it shows what the model received', async () => {
		// This tab recorded a request, whose frame was stored earlier for another conversation;
		// that conversation is deleted (in another tab) before the answer row is written.
		const earlier = await conversation('Same prompt');
		const { id } = await createSession(ctx, { provider: 'offline', model: 'offline-mini' });
		const [user] = await appendMessages(db, id, [{ id: 'u', role: 'user', content: 'Hi', status: 'complete', kind: 'message', created_at: 1 }]);
		const request = { model: 'offline-mini', messages: [{ role: 'system' as const, content: 'Same prompt' }, { role: 'user' as const, content: 'Hi' }] };
		const recorded = (await recordRequest({ provider }, request, { systemPrompt: 'Same prompt', rows: [user], userSeq: user.seq }))!;
		await deleteSessions(ctx, [earlier]);
		expect(await storedPrompts()).toEqual([]);
		const answer = { id: 'a', role: 'assistant' as const, content: 'Hello', status: 'complete' as const, kind: 'message' as const, created_at: 2, sent: recorded.sent };
		await appendMessages(db, id, [answer], 2, recorded.frames);
		expect((await received(id)).parts.map((part) => part.text)).toEqual(['Same prompt', 'Hi']);
	});
});
