// Keep in context: on every way a conversation is compacted (asked for, before a request, after
// a tool, on overflow down to the last message, between turns, by the provider), the messages the
// user keeps stay as they were, and the model receives the summary, then them in their order,
// then the kept tail. Undo and Edit summary leave the pins as they are.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { listActiveMessages } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import { appendMessages, listMessages } from '../db/message-verbs';
import { setPinned } from '../db/pin-verbs';
import type { MessageRow } from '../db/schema';
import { createOfflineProvider } from '../providers/offline';
import { ProviderError, type StreamEvent, type ToolCall } from '../providers/types';
import { editSummary, undoCompaction } from '../sessions/undo-compaction';
import { compactSession } from './compact-session';
import { createTurnCompaction, runIdlePass } from './compaction-gates';
import { filler, say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import type { CompactionOutcome, CompactionSettings } from './compaction-types';
import { compactToFit } from './fit-overflow';
import { runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const setup = useCompactionEnv('keep-in-context');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

const offline = createOfflineProvider({ delayMs: 0 });
const summarizer = { provider: offline, model: 'offline-mini', windowTokens: 32_000 };

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
		compaction: createTurnCompaction(env.deps({ provider, summarizer }, settings), { resumed }),
		...extra
	};
}

/** Keeps the rows of these ids in context; returns their text, in order. */
async function keep(sessionId: string, ids: string[]): Promise<string[]> {
	const rows = (await listMessages(db, sessionId)).filter((row) => ids.includes(row.id));
	for (const row of rows) await setPinned(db, sessionId, row.seq, true);
	return rows.map((row) => row.content);
}

const toolTurn = (output: string) => {
	const tools = { schemas: () => [{ name: 'fetch_page', description: 'Fetch', parameters: { type: 'object' } }], run: async () => output };
	const { provider } = scripted(async function* (_request, call): AsyncGenerator<StreamEvent> {
		if (call === 0) {
			yield { type: 'tool_call', call: { id: 'new-call', name: 'fetch_page', arguments: '{}' } };
			yield { type: 'done', finish_reason: 'tool_calls' };
		} else yield* say('Read it.');
	});
	return { provider, tools };
};

async function toolExchange(sessionId: string, id: string, output: string): Promise<void> {
	const call: ToolCall = { id, name: 'fetch_page', arguments: '{"url":"https://example.com"}' };
	await appendMessages(db, sessionId, [
		{ id: `${id}-u`, role: 'user', kind: 'message', status: 'complete', created_at: 1, content: `Read page ${id}` },
		{ id: `${id}-c`, role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: `Reading page ${id}.`, tool_calls: [call] },
		{ id: `${id}-r`, role: 'tool', kind: 'message', status: 'complete', created_at: 1, content: output, tool_call_id: id },
		{ id: `${id}-a`, role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: `Page ${id} read.` }
	]);
}

/** What the next request carries, after the system prompt: each message's text, in order. */
async function nextRequest(sessionId: string): Promise<string[]> {
	const { provider, requests } = scripted(() => say('Fine.'));
	await runTurn({ db, provider, model: 'offline-mini', profile: 'default', platform: 'web', systemPrompt: 'SYS', checkpointMs: 0 }, { sessionId, text: 'Go on' });
	return requests[0].messages.slice(1).map((message) => message.content);
}

/** The kept messages follow the latest summary, in their order and as they were; the request carries them so. */
async function expectKeptAfterSummary(sessionId: string, kept: string[]): Promise<MessageRow[]> {
	const rows = contextRows(await listActiveMessages(db, sessionId));
	const at = rows.findIndex((row) => row.content === kept[0]);
	expect(at, 'the first kept message is in the context').toBeGreaterThan(0);
	expect(rows[at - 1]).toMatchObject({ kind: 'summary' });
	expect(rows.slice(at).some((row) => row.kind === 'summary')).toBe(false);
	expect(rows.slice(at, at + kept.length).map((row) => [row.content, row.pinned])).toEqual(kept.map((text) => [text, true]));
	const sent = await nextRequest(sessionId);
	const first = sent.indexOf(kept[0]);
	expect(sent[first - 1]).toBe(rows[at - 1].content);
	expect(sent.slice(first, first + kept.length)).toEqual(kept);
	return rows;
}

interface Case {
	name: string;
	kind: string;
	reason: string;
	/** Seeds the session, keeps some of its messages, and runs the real trigger. Returns what is kept. */
	run: (sessionId: string) => Promise<string[]>;
}

const CASES: Case[] = [
	{
		name: '/compress and Compact now',
		kind: 'summarize',
		reason: 'manual',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const kept = await keep(id, ['u1', 'a3']);
			await compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'manual' });
			return kept;
		}
	},
	{
		name: 'before a request',
		kind: 'summarize',
		reason: 'pre_api',
		run: async (id) => {
			await seedConversation(db, id, 30);
			const kept = await keep(id, ['u1', 'a3']);
			await runTurn(turnDeps(), { sessionId: id, text: 'And next?' });
			return kept;
		}
	},
	{
		name: 'a resumed session',
		kind: 'summarize',
		reason: 'gateway_hygiene',
		run: async (id) => {
			await seedConversation(db, id, 18);
			const kept = await keep(id, ['u1', 'a3']);
			await runTurn(turnDeps(offline, { hygieneThreshold: 0.4, threshold: 0.95 }, true), { sessionId: id, text: 'Back again' });
			return kept;
		}
	},
	{
		name: 'after a tool result',
		kind: 'summarize',
		reason: 'post_tool',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const kept = await keep(id, ['u1', 'a3']);
			const { provider, tools } = toolTurn(filler(3, 1500));
			await runTurn(turnDeps(provider, {}, false, { tools }), { sessionId: id, text: 'Fetch it' });
			return kept;
		}
	},
	{
		name: 'an overflow',
		kind: 'summarize',
		reason: 'overflow',
		run: async (id) => {
			await seedConversation(db, id, 10);
			const kept = await keep(id, ['u1', 'a3']);
			const { provider } = scripted(async function* (_r, call) {
				if (call === 0) throw new ProviderError('HTTP 400: maximum context length is 4000 tokens', { kind: 'overflow', status: 400 });
				yield* say('Fits now.');
			});
			await runTurn(turnDeps(provider), { sessionId: id, text: 'Go on' });
			return kept;
		}
	},
	{
		name: 'an overflow compacted down to the last message',
		kind: 'summarize',
		reason: 'overflow',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const kept = await keep(id, ['u1', 'a3']);
			await compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'overflow', tailTokens: 0, minimalTail: true });
			return kept;
		}
	},
	{
		name: 'between turns',
		kind: 'summarize',
		reason: 'between_turns',
		run: async (id) => {
			await seedConversation(db, id, 14);
			const kept = await keep(id, ['u1', 'a3']);
			await runIdlePass(env.deps({ summarizer }, { idleThreshold: 0.5 }), id);
			return kept;
		}
	},
	{
		name: 'one exchange folded between turns',
		kind: 'micro_summarize',
		reason: 'between_turns',
		run: async (id) => {
			await seedConversation(db, id, 4, 600);
			const kept = await keep(id, ['u0']);
			await runIdlePass(env.deps({ summarizer }, { micro: true, microEvery: 1, idleThreshold: 0.99 }), id);
			return kept;
		}
	},
	{
		name: "the provider's own compaction, asked for",
		kind: 'provider_native',
		reason: 'manual',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const kept = await keep(id, ['u1', 'a3']);
			await compactSession(env.deps({}, { native: true }), { sessionId: id, reason: 'manual' });
			return kept;
		}
	},
	{
		name: 'the provider compacting on its own while answering',
		kind: 'provider_native',
		reason: 'provider',
		run: async (id) => {
			await seedConversation(db, id, 12);
			const kept = await keep(id, ['u1', 'a3']);
			const native = { api: 'anthropic' as const, model: 'offline-mini', items: [{ type: 'compaction', content: 'In short.' }], opaque: false };
			const { provider } = scripted(async function* () {
				yield { type: 'native_compaction', native, summary: 'In short.' };
				yield* say('Answered with less context.');
			});
			await runTurn(turnDeps(provider), { sessionId: id, text: 'Next' });
			return kept;
		}
	}
];

describe('a message kept in context survives every compaction as it was', () => {
	it.each(CASES.map((c) => [`${c.kind} / ${c.reason}: ${c.name}`, c] as const))('%s', async (_name, { kind, reason, run }) => {
		const id = await env.newSession();
		const kept = await run(id);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toEqual([expect.objectContaining({ kind, reason })]);
		await expectKeptAfterSummary(id, kept);
	});

	it('stays when its tool results would be pruned, after a tool and between turns', async () => {
		for (const trigger of ['post_tool', 'proactive_prune'] as const) {
			const id = await env.newSession();
			await toolExchange(id, 'kept', filler(4, 800));
			await toolExchange(id, 'old', filler(5, 1200));
			await seedConversation(db, id, 6);
			await keep(id, ['kept-c']);
			if (trigger === 'post_tool') {
				const { provider, tools } = toolTurn(filler(3, 900));
				await runTurn(turnDeps(provider, {}, false, { tools }), { sessionId: id, text: 'Fetch it' });
			} else await runIdlePass(env.deps({ summarizer }, { pruneMinReclaim: 500 }), id);
			await env.bus.hooks.settled();
			expect(env.bus.of('post_compaction').at(-1), trigger).toMatchObject({ kind: 'prune_tool_results', reason: trigger });
			const rows = contextRows(await listActiveMessages(db, id));
			expect(rows.find((row) => row.tool_call_id === 'kept')?.content, trigger).toBe(filler(4, 800));
			expect(rows.find((row) => row.tool_call_id === 'old')?.content, trigger).toMatch(/^\[Tool output pruned/);
		}
	});

	it('goes along, still kept, into the session a compaction continues in', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const kept = await keep(id, ['u1', 'a3']);
		const outcome = await compactSession(env.deps({ summarizer }, { inPlace: false }), { sessionId: id, reason: 'manual' });
		expect(outcome).toMatchObject({ status: 'compacted', rotated: true });
		const child = (outcome as Extract<CompactionOutcome, { status: 'compacted' }>).sessionId;
		const rows = await expectKeptAfterSummary(child, kept);
		expect(rows[0].kind).toBe('summary');
	});

	it('is never folded by a compaction that was planned before it was kept', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const target = (await listMessages(db, id)).find((row) => row.id === 'u1')!;
		// The message is kept while the summary is being written.
		const { provider } = scripted(async function* () {
			await setPinned(db, id, target.seq, true);
			yield* say('## Goal\n- Talk about rivers.');
		});
		const outcome = await compactSession(env.deps({ summarizer: { provider, model: 'offline-mini', windowTokens: 32_000 } }), { sessionId: id, reason: 'manual' });
		expect(outcome).toMatchObject({ status: 'noop', why: 'race' });
		expect((await listMessages(db, id)).find((row) => row.id === 'u1')).toMatchObject({ active: 1, pinned: true, compacted_by: null });
		// Asked again, the compaction keeps it.
		expect((await compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'manual' })).status).toBe('compacted');
		await expectKeptAfterSummary(id, [target.content]);
	});

	it('is folded again once it is no longer kept', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const [text] = await keep(id, ['u1']);
		await compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'manual' });
		await expectKeptAfterSummary(id, [text]);
		const row = (await listMessages(db, id)).find((r) => r.content === text && r.active === 1)!;
		await setPinned(db, id, row.seq, false);
		await appendMessages(db, id, [
			{ id: 'later-u', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: 'One more question.' },
			{ id: 'later-a', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: 'One more answer.' }
		]);
		expect((await compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'manual' })).status).toBe('compacted');
		expect(contextRows(await listActiveMessages(db, id)).map((r) => r.content)).not.toContain(text);
	});

	it('keeps its pin through Edit summary and Undo compaction', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 12);
		const kept = await keep(id, ['u1', 'a3']);
		await compactSession(env.deps({ summarizer }), { sessionId: id, reason: 'manual' });
		const marker = (await listActiveMessages(db, id)).find((row) => row.compaction)!;
		await editSummary(env.sessions, id, marker.compaction!.id, 'My own summary: rivers.');
		const rows = await expectKeptAfterSummary(id, kept);
		expect(rows.find((row) => row.kind === 'summary')!.content).toBe('My own summary: rivers.');
		await undoCompaction(env.sessions, id, marker.compaction!.id);
		const back = contextRows(await listActiveMessages(db, id));
		expect(back.filter((row) => row.pinned).map((row) => row.content)).toEqual(kept);
		expect(back.map((row) => row.id).slice(0, 8)).toEqual(['u0', 'a0', 'u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
	});
});

describe('an overflow that the kept messages alone exceed', () => {
	it('compacts down to the last message around them, keeps them, and says they are what is left', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 6);
		await appendMessages(db, id, [
			{ id: 'big', role: 'user', kind: 'message', status: 'complete', created_at: 1, content: `My notes: ${filler(9, 900)}` },
			{ id: 'big-a', role: 'assistant', kind: 'message', status: 'complete', created_at: 1, content: 'Noted.' }
		]);
		await seedConversation(db, id, 2);
		const kept = await keep(id, ['big']);
		const outcome = await compactToFit(env.deps({ summarizer, windowTokens: 600 }), id, []);
		expect(outcome).toMatchObject({ status: 'noop', why: 'nothing' });
		expect((outcome as { message: string }).message).toMatch(/only your last message and the message you keep in context kept, .*stop keeping some messages in context/);
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction').length).toBeGreaterThan(0);
		await expectKeptAfterSummary(id, kept);
	});
});
