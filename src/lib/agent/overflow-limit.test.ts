// An overflow the provider's limit wins: a local server with an 8,192-token window refuses a
// conversation of about 5,000 tokens by this app's count; the app learns the window and the
// ratio from the error, compacts until the request fits, retries once, and answers.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { getSession } from '../db/session-verbs';
import { estimateSession } from '../context/estimate-session';
import { reservedOutputFor } from '../context/context-window';
import { classifyHttpError } from '../providers/classify-error';
import type { ChatRequest, StreamEvent } from '../providers/types';
import { createTurnCompaction } from './compaction-gates';
import { filler, say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import { runTurn } from './run-turn';

const setup = useCompactionEnv('overflow-limit');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

const MODEL = 'local-model';
// The app does not know this model: it assumes the default window (128,000 tokens).
const ASSUMED_WINDOW = 128_000;

const overflow = (window: number, requested: number) =>
	classifyHttpError(400, JSON.stringify({ error: { message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${requested} tokens.`, type: 'invalid_request_error' } }));

/** A local server: summary requests (max_tokens set) are answered; chat requests are refused while `refuse` says so. */
function localServer(refuse: (request: ChatRequest, chatCall: number) => Error | null) {
	let chats = 0;
	return scripted(async function* (request): AsyncGenerator<StreamEvent> {
		if (request.max_tokens !== undefined) return yield* say('## Goal\n- Talk about harbours.\n## Done\n- Several long answers.');
		const refusal = refuse(request, chats++);
		if (refusal) throw refusal;
		yield* say('It fits now.');
	});
}

function turnDeps(provider: ReturnType<typeof localServer>['provider'], learned: unknown[]) {
	const compaction = env.deps(
		{ provider, model: MODEL, summarizer: { provider, model: MODEL, windowTokens: ASSUMED_WINDOW }, windowTokens: ASSUMED_WINDOW, request: { systemPrompt: 'SYS', reservedOutput: reservedOutputFor(ASSUMED_WINDOW) }, onLimitLearned: (...args) => void learned.push(args) },
		{ tailTokens: 6000 }
	);
	// As the app does: the kept tail is at most a quarter of the (assumed) window.
	compaction.settings.tailTokens = Math.min(6000, Math.floor(ASSUMED_WINDOW / 4));
	return { db, provider, model: MODEL, profile: 'default', platform: 'web', hooks: env.bus.hooks, systemPrompt: 'SYS', checkpointMs: 0, compaction: createTurnCompaction(compaction, { resumed: false }) };
}

async function fiveThousandTokens(): Promise<string> {
	const id = await env.newSession(MODEL);
	await seedConversation(db, id, 14, 280);
	const estimate = await estimateSession(db, env.counter, id, MODEL, { systemPrompt: 'SYS' });
	expect(estimate!.counted).toBeGreaterThan(4000);
	expect(estimate!.counted).toBeLessThan(7000);
	return id;
}

describe('an overflow the provider states its numbers for', () => {
	it('is compacted until the request fits the stated window, retried once, and answered', async () => {
		const id = await fiveThousandTokens();
		const learned: unknown[] = [];
		const { provider, requests } = localServer((_request, call) => (call === 0 ? overflow(8192, 9120) : null));
		const result = await runTurn(turnDeps(provider, learned), { sessionId: id, text: 'Tell me more about harbours' });
		expect(result).toMatchObject({ status: 'complete', content: 'It fits now.' });
		// One refused request, one retry: the summary requests are the only others.
		expect(requests.filter((r) => r.max_tokens === undefined)).toHaveLength(2);

		const session = (await getSession(db, id))!;
		expect(session.token_ratio).toBeGreaterThan(1.2);
		expect(learned).toEqual([[MODEL, { window: 8192, ratio: session.token_ratio }]]);
		// What was retried fits the window by the provider's count, its answer's room kept.
		const estimate = await estimateSession(db, env.counter, id, MODEL, { systemPrompt: 'SYS', reservedOutput: reservedOutputFor(8192) });
		expect(estimate!.total).toBeLessThanOrEqual(8192);

		await env.bus.hooks.settled();
		const events = env.bus.of('post_compaction');
		expect(events.length).toBeGreaterThanOrEqual(1);
		expect(events.every((e) => e.reason === 'overflow')).toBe(true);
	});

	it('is compacted all the same when the error states no numbers and the conversation fits by this app\'s count', async () => {
		const id = await fiveThousandTokens();
		const unstated = classifyHttpError(400, JSON.stringify({ error: { message: 'Your input exceeds the context window of this model.', code: 'context_length_exceeded' } }));
		const learned: unknown[] = [];
		const { provider, requests } = localServer((_request, call) => (call === 0 ? unstated : null));
		const result = await runTurn(turnDeps(provider, learned), { sessionId: id, text: 'Tell me more about harbours' });
		expect(result).toMatchObject({ status: 'complete', content: 'It fits now.' });
		expect(requests.filter((r) => r.max_tokens === undefined)).toHaveLength(2);
		expect(learned).toEqual([]);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction').map((e) => e.reason)).toEqual(['overflow']);
	});

	it('is compacted even while automatic compaction is paused after a failure', async () => {
		const id = await fiveThousandTokens();
		const session = (await getSession(db, id))!;
		await db.sessions.update(id, { compaction: { ...session.compaction, failures: 1, cooldown_until: Date.now() + 60_000 } });
		const { provider } = localServer((_request, call) => (call === 0 ? overflow(8192, 9120) : null));
		const result = await runTurn(turnDeps(provider, []), { sessionId: id, text: 'Tell me more about harbours' });
		expect(result).toMatchObject({ status: 'complete', content: 'It fits now.' });
	});

	it('stops with a clear error, without a retry, when even the last message does not fit', async () => {
		const id = await fiveThousandTokens();
		const { provider, requests } = localServer(() => overflow(1000, 9120));
		const result = await runTurn(turnDeps(provider, []), { sessionId: id, text: `Read this: ${filler(3, 1500)}` });
		expect(result.status).toBe('error');
		expect(result.error).toMatch(/Compacting the conversation did not help: even with only your last message kept, the request needs about [\d,]+ tokens, more than the 1,000-token window of local-model/);
		expect(requests.filter((r) => r.max_tokens === undefined)).toHaveLength(1);
	});
});
