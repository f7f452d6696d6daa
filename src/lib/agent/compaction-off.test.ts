// A chat whose compaction is off (Chat settings): whatever would compact it on its own (a
// threshold before a request or after tools, a resumed session, the idle pass, an overflow, the
// provider's own compaction) leaves it whole, and the user can still compact it.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { createOfflineProvider } from '../providers/offline';
import { ProviderError, type StreamEvent } from '../providers/types';
import { compactSession } from './compact-session';
import { createTurnCompaction, runIdlePass } from './compaction-gates';
import { filler, say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import type { CompactionSettings } from './compaction-types';
import { compactForModel } from './model-switch';
import { runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const setup = useCompactionEnv('compaction-off');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

const offline = createOfflineProvider({ delayMs: 0 });
const summarizer = { provider: offline, model: 'offline-mini', windowTokens: 32_000 };
const OFF: Partial<CompactionSettings> = { automatic: false };

function turnDeps(provider = offline, settings: Partial<CompactionSettings> = {}, resumed = false, extra: Partial<TurnDeps> = {}): TurnDeps {
	return {
		db,
		provider,
		model: 'offline-mini',
		profile: 'default',
		platform: 'web',
		hooks: env.bus.hooks,
		systemPrompt: 'SYS',
		checkpointMs: 0,
		compaction: createTurnCompaction(env.deps({ provider, summarizer }, { ...OFF, ...settings }), { resumed }),
		...extra
	};
}

const toolTurn = (output: string) => {
	const tools = { schemas: () => [{ name: 'fetch_page', description: 'Fetch', parameters: { type: 'object' } }], run: async () => output };
	const { provider, requests } = scripted(async function* (_request, call): AsyncGenerator<StreamEvent> {
		if (call === 0) {
			yield { type: 'tool_call', call: { id: 'new-call', name: 'fetch_page', arguments: '{}' } };
			yield { type: 'done', finish_reason: 'tool_calls' };
		} else yield* say('Read it.');
	});
	return { provider, requests, tools };
};

/** Each way compaction starts on its own, over its threshold (see compaction.test.ts, where each fires). */
const TRIGGERS: [string, (id: string) => Promise<unknown>][] = [
	['pre_api', async (id) => (await seedConversation(db, id, 30), runTurn(turnDeps(), { sessionId: id, text: 'And next?' }))],
	['gateway_hygiene', async (id) => (await seedConversation(db, id, 18), runTurn(turnDeps(offline, { hygieneThreshold: 0.4, threshold: 0.95 }, true), { sessionId: id, text: 'Back again' }))],
	[
		'post_tool',
		async (id) => {
			await seedConversation(db, id, 12);
			const { provider, tools } = toolTurn(filler(3, 1500));
			return runTurn(turnDeps(provider, {}, false, { tools }), { sessionId: id, text: 'Fetch it' });
		}
	],
	['between_turns', async (id) => (await seedConversation(db, id, 14), runIdlePass(env.deps({ summarizer }, { ...OFF, idleThreshold: 0.5 }), id))],
	['micro_summarize', async (id) => (await seedConversation(db, id, 4, 600), runIdlePass(env.deps({ summarizer }, { ...OFF, micro: true, microEvery: 1, idleThreshold: 0.99 }), id))],
	[
		'proactive_prune',
		async (id) => {
			const call = { id: 'old', name: 'fetch_page', arguments: '{}' };
			await appendMessages(db, id, [
				{ id: 'u', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: 'Read it' },
				{ id: 'c', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: '', tool_calls: [call] },
				{ id: 'r', role: 'tool', kind: 'message', status: 'complete', created_at: 1, content: filler(5, 1500), tool_call_id: 'old' }
			]);
			await seedConversation(db, id, 3);
			return runIdlePass(env.deps({ summarizer }, { ...OFF, pruneMinReclaim: 500 }), id);
		}
	],
	['a model that no longer fits', async (id) => (await seedConversation(db, id, 30), compactForModel(env.deps({ summarizer }, OFF), id))]
];

describe('a chat whose compaction is off', () => {
	it.each(TRIGGERS)('is not compacted on its own: %s', async (_name, run) => {
		const id = await env.newSession();
		await run(id);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toEqual([]);
		expect((await listMessages(db, id)).every((row) => row.active === 1 && row.kind !== 'summary')).toBe(true);
	});

	it('asks the provider for no compaction of its own, whatever Settings say', () => {
		expect(createTurnCompaction(env.deps({}, { native: true }), { resumed: false }).contextManagement()).toEqual({ compactAt: expect.any(Number) });
		expect(createTurnCompaction(env.deps({}, { ...OFF, native: true }), { resumed: false }).contextManagement()).toBeUndefined();
	});

	it('ends a turn the provider refuses as too long with its error and what makes room, compacting nothing and asking once', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 10);
		const { provider, requests } = scripted(async function* (_request, call): AsyncGenerator<StreamEvent> {
			if (call >= 0) throw new ProviderError('HTTP 400: maximum context length is 4000 tokens', { kind: 'overflow', status: 400 });
			yield* say('Never reached.');
		});
		const result = await runTurn(turnDeps(provider), { sessionId: id, text: 'Go on' });
		expect(result.status).toBe('error');
		expect(result.error).toContain('maximum context length is 4000 tokens');
		expect(result.error).toContain('Compaction is off for this chat: Compact now makes room, or turn it on in Chat settings.');
		expect(requests).toHaveLength(1);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toEqual([]);
	});

	it('is still compacted when the user asks (Compact now, /compress)', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const outcome = await compactSession(env.deps({ summarizer }, OFF), { sessionId: id, reason: 'manual' });
		expect(outcome.status).toBe('compacted');
	});
});
