// A turn writes at most two summaries on its own, however often its thresholds or the
// provider's refusals ask for more: the third is refused with words the turn's error can carry.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { appendMessages } from '../db/message-verbs';
import { reservedOutputFor } from '../context/context-window';
import { createTurnCompaction } from './compaction-gates';
import { filler, say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';

const setup = useCompactionEnv('turn-budget');
let env: CompactionEnv;
beforeEach(() => {
	env = setup.current();
});

const MODEL = 'local-model';
const WINDOW = 20_000;

/** More of the conversation, as tool rounds bring it. */
async function grow(sessionId: string, round: number): Promise<void> {
	const rows = Array.from({ length: 8 }, (_, i) => ({
		id: `r${round}-${i}`,
		role: i % 2 ? ('assistant' as const) : ('user' as const),
		kind: 'message' as const,
		status: 'complete' as const,
		created_at: 1,
		content: `Round ${round}, part ${i}: ${filler(round * 10 + i, 600)}`
	}));
	await appendMessages(env.db, sessionId, rows);
}

describe('the summaries of one turn', () => {
	it('are two at most: a third, asked for by a later round or an overflow, is refused and says why', async () => {
		const id = await env.newSession(MODEL);
		await seedConversation(env.db, id, 14, 500);
		const { provider } = scripted(async function* () {
			yield* say('## Goal\n- Talk about harbours.');
		});
		const deps = env.deps(
			{ provider, model: MODEL, summarizer: { provider, model: MODEL, windowTokens: WINDOW }, windowTokens: WINDOW, request: { systemPrompt: 'SYS', reservedOutput: reservedOutputFor(WINDOW) } },
			{ tailTokens: 1500, threshold: 0.3 }
		);
		const gate = createTurnCompaction(deps, { resumed: false });
		expect(await gate.beforeTurn(id)).toMatchObject({ status: 'compacted', payload: { reason: 'pre_api', kind: 'summarize' } });
		await grow(id, 1);
		expect(await gate.beforeRequest(id, [], true)).toMatchObject({ status: 'compacted', payload: { reason: 'post_tool', kind: 'summarize' } });
		await grow(id, 2);
		const third = await gate.onOverflow(id, undefined, { limit: null, injected: [] });
		expect(third).toMatchObject({ status: 'noop', why: 'turn_limit' });
		expect(third.status === 'noop' && third.message).toMatch(/^it was summarised twice in this turn already, so it is not compacted again[;,] .*Shorten your message, or choose a model with a larger context window\.$/);

		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction').filter((e) => e.kind === 'summarize').map((e) => e.reason)).toEqual(['pre_api', 'post_tool']);
		// A new turn has a budget of its own.
		const next = createTurnCompaction(deps, { resumed: false });
		expect(await next.onOverflow(id, undefined, { limit: null, injected: [] })).toMatchObject({ status: 'compacted', payload: { reason: 'overflow' } });
	});
});
