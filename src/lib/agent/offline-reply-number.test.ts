// The offline model numbers its replies over the session's whole history: a compaction (in
// place, or folding an earlier summary, or the model's own) never makes it count again from
// the messages left in the context, and an undone one leaves the count as it was.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { listActiveMessages } from '../db/compaction-verbs';
import { createOfflineProvider } from '../providers/offline';
import { undoCompaction } from '../sessions/undo-compaction';
import { compactSession } from './compact-session';
import { useCompactionEnv, type CompactionEnv } from './compaction-fixtures';
import type { CompactionSettings } from './compaction-types';
import { runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const setup = useCompactionEnv('offline-reply-number');
let env: CompactionEnv;
beforeEach(() => {
	env = setup.current();
});

const offline = createOfflineProvider({ delayMs: 0 });
const summarizer = { provider: offline, model: 'offline-mini', windowTokens: 32_000 };

function turnDeps(): TurnDeps {
	return { db: env.db, provider: offline, model: 'offline-mini', profile: 'default', platform: 'web', hooks: env.bus.hooks, systemPrompt: 'SYS', checkpointMs: 0 };
}

/** Sends `text` and returns the number the offline model gave its reply. */
async function replyNumber(sessionId: string, text: string): Promise<number> {
	const answer = await runTurn(turnDeps(), { sessionId, text });
	const number = /\*Reply (\d+) from the built-in offline model/.exec(answer.content)?.[1];
	if (!number) throw new Error(`No reply number in: ${answer.content}`);
	return Number(number);
}

async function compact(sessionId: string, settings: Partial<CompactionSettings> = {}): Promise<string> {
	const outcome = await compactSession(env.deps({ summarizer }, settings), { sessionId, reason: 'manual' });
	expect(outcome.status).toBe('compacted');
	const marker = (await listActiveMessages(env.db, sessionId)).findLast((row) => row.compaction)!;
	return marker.compaction!.id;
}

const topics = ['lighthouses', 'tides', 'harbours', 'lenses', 'storms', 'charts', 'keepers', 'fog'];

describe('the offline model’s reply number', () => {
	it('goes on after a compaction, and after a second one that updates the first summary', async () => {
		const id = await env.newSession();
		for (const [index, topic] of topics.slice(0, 3).entries()) expect(await replyNumber(id, `Tell me about ${topic}`)).toBe(index + 1);
		await compact(id);
		expect(await replyNumber(id, 'Tell me about lenses')).toBe(4);
		expect(await replyNumber(id, 'Tell me about storms')).toBe(5);
		await compact(id);
		expect(await replyNumber(id, 'Tell me about charts')).toBe(6);
	});

	it('goes on the same after the model’s own compaction', async () => {
		const id = await env.newSession();
		for (const topic of topics.slice(0, 4)) await replyNumber(id, `Tell me about ${topic}`);
		await compact(id, { native: true });
		expect(await replyNumber(id, 'Tell me about fog')).toBe(5);
	});

	it('is unchanged by an undone compaction', async () => {
		const id = await env.newSession();
		for (const topic of topics.slice(0, 3)) await replyNumber(id, `Tell me about ${topic}`);
		const marker = await compact(id);
		await undoCompaction(env.sessions, id, marker);
		expect(await replyNumber(id, 'Tell me about lenses')).toBe(4);
	});
});
