import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import type { CompactionKind, CompactionReason } from '../hooks/hook-payloads';
import { createOfflineProvider } from '../providers/offline';
import { ProviderError, type StreamEvent, type ToolCall } from '../providers/types';
import { compactSession } from './compact-session';
import { createTurnCompaction, runIdlePass } from './compaction-gates';
import { filler, say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import type { CompactionSettings } from './compaction-types';
import { runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const setup = useCompactionEnv('compaction');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

const offline = createOfflineProvider({ delayMs: 0 });
const summarizer = { provider: offline, model: 'offline-mini', windowTokens: 32_000 };

/** The turn loop wired to the same compaction set-up. */
function turnDeps(provider = offline, settings: Partial<CompactionSettings> = {}, resumed = false, extra: Partial<TurnDeps> = {}): TurnDeps {
	const compaction = env.deps({ provider, summarizer }, settings);
	return {
		db,
		provider,
		model: 'offline-mini',
		profile: 'default',
		platform: 'web',
		hooks: env.bus.hooks,
		systemPrompt: 'SYS',
		checkpointMs: 0,
		compaction: createTurnCompaction(compaction, { resumed }),
		...extra
	};
}

async function toolExchange(sessionId: string, id: string, output: string): Promise<void> {
	const call: ToolCall = { id, name: 'fetch_page', arguments: '{"url":"https://example.com"}' };
	await appendMessages(db, sessionId, [
		{ id: `${id}-u`, role: 'user', kind: 'message', status: 'complete', created_at: 1, content: `Read page ${id}` },
		{ id: `${id}-c`, role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: '', tool_calls: [call] },
		{ id: `${id}-r`, role: 'tool', kind: 'message', status: 'complete', created_at: 1, content: output, tool_call_id: id },
		{ id: `${id}-a`, role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: `Page ${id} read.` }
	]);
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

interface Case {
	kind: CompactionKind;
	reason: CompactionReason;
	/** Seeds the session and runs the real trigger. */
	run: (sessionId: string) => Promise<unknown>;
}

const CASES: Case[] = [
	{
		kind: 'summarize',
		reason: 'manual',
		run: async (id) => (await seedConversation(db, id, 12), compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'manual' }))
	},
	{
		kind: 'summarize',
		reason: 'unknown',
		run: async (id) => (await seedConversation(db, id, 12), compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'unknown' }))
	},
	{
		kind: 'summarize',
		reason: 'pre_api',
		run: async (id) => (await seedConversation(db, id, 30), runTurn(turnDeps(), { sessionId: id, text: 'And next?' }))
	},
	{
		kind: 'summarize',
		reason: 'gateway_hygiene',
		run: async (id) => (await seedConversation(db, id, 18), runTurn(turnDeps(offline, { hygieneThreshold: 0.4, threshold: 0.95 }, true), { sessionId: id, text: 'Back again' }))
	},
	{
		kind: 'summarize',
		reason: 'post_tool',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const { provider, tools } = toolTurn(filler(3, 1500));
			return runTurn(turnDeps(provider, {}, false, { tools }), { sessionId: id, text: 'Fetch it' });
		}
	},
	{
		kind: 'prune_tool_results',
		reason: 'post_tool',
		run: async (id) => {
			await toolExchange(id, 'old', filler(5, 2200));
			await seedConversation(db, id, 3);
			const { provider, tools } = toolTurn(filler(3, 900));
			return runTurn(turnDeps(provider, {}, false, { tools }), { sessionId: id, text: 'Fetch it' });
		}
	},
	{
		kind: 'summarize',
		reason: 'overflow',
		run: async (id) => {
			await seedConversation(db, id, 10);
			const { provider } = scripted(async function* (_r, call) {
				if (call === 0) throw new ProviderError('HTTP 400: maximum context length is 4000 tokens', { kind: 'overflow', status: 400 });
				yield* say('Fits now.');
			});
			return runTurn(turnDeps(provider), { sessionId: id, text: 'Go on' });
		}
	},
	{
		kind: 'summarize',
		reason: 'between_turns',
		run: async (id) => (await seedConversation(db, id, 14), runIdlePass(env.deps({ summarizer }, { idleThreshold: 0.5 }), id))
	},
	{
		kind: 'micro_summarize',
		reason: 'between_turns',
		// One long exchange is folded: a short one would not make the context shorter.
		run: async (id) => (await seedConversation(db, id, 4, 600), runIdlePass(env.deps({ summarizer }, { micro: true, microEvery: 1, idleThreshold: 0.99 }), id))
	},
	{
		kind: 'prune_tool_results',
		reason: 'proactive_prune',
		run: async (id) => {
			await toolExchange(id, 'old', filler(5, 1500));
			await seedConversation(db, id, 3);
			return runIdlePass(env.deps({ summarizer }, { pruneMinReclaim: 500 }), id);
		}
	},
	{
		// Context editing: the provider cleared old tool uses from its view.
		kind: 'prune_tool_results',
		reason: 'provider',
		run: async (id) => {
			await toolExchange(id, 'old', filler(5, 300));
			const { provider } = scripted(async function* () {
				yield { type: 'context_compacted', cleared_tool_results: 1 };
				yield* say('Answered with less context.');
			});
			return runTurn(turnDeps(provider), { sessionId: id, text: 'Next' });
		}
	},
	{
		// The provider compacted on its own while answering (an OpenAI item, an Anthropic block).
		kind: 'provider_native',
		reason: 'provider',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const native = { api: 'anthropic' as const, model: 'offline-mini', items: [{ type: 'compaction', content: 'In short.' }], opaque: false };
			const { provider } = scripted(async function* () {
				yield { type: 'native_compaction', native, summary: 'In short.' };
				yield* say('Answered with less context.');
			});
			return runTurn(turnDeps(provider), { sessionId: id, text: 'Next' });
		}
	},
	{
		kind: 'provider_native',
		reason: 'manual',
		run: async (id) => (await seedConversation(db, id, 12), compactSession(env.deps({}, { native: true }), { sessionId: id, reason: 'manual' }))
	},
	{
		kind: 'provider_native',
		reason: 'pre_api',
		run: async (id) => (await seedConversation(db, id, 30), runTurn(turnDeps(offline, { native: true }), { sessionId: id, text: 'And next?' }))
	}
];

describe('post_compaction fires once for every kind and reason the app produces', () => {
	it.each(CASES.map((c) => [`${c.kind} / ${c.reason}`, c] as const))('%s', async (_name, { kind, reason, run }) => {
		const id = await env.newSession();
		await run(id);
		await env.bus.hooks.settled();
		const events = env.bus.of('post_compaction');
		expect(events).toHaveLength(1);
		const [event] = events;
		expect(event).toMatchObject({ session_id: id, old_session_id: '', kind, reason, profile: 'default', platform: 'web' });
		expect(event.before_tokens).toEqual(expect.any(Number));
		expect(event.after_tokens).toBeLessThan(event.before_tokens as number);
		expect(event.messages_removed).toBeGreaterThan(0);
		// The marker in the transcript says the same, and the removed rows are kept, inactive.
		const rows = await listMessages(db, id);
		const marker = rows.find((row) => row.compaction);
		expect(marker?.compaction).toMatchObject({ kind, reason, before_tokens: event.before_tokens, after_tokens: event.after_tokens, messages_removed: event.messages_removed });
		expect(rows.filter((row) => row.compacted_by === marker?.compaction?.id)).toHaveLength(event.messages_removed as number);
	});
});
