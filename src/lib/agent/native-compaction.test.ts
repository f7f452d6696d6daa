// The provider's own compaction as the turn loop and compaction see it: a compaction the
// provider made while answering is folded in and announced once, its item stored and sent
// back unchanged; compaction on demand replaces the rows before the kept tail; a model that
// cannot read the item gets a local summary first.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSession } from '../db/session-verbs';
import { listActiveMessages } from '../db/compaction-verbs';
import type { PalimpsestDb } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { ProviderError, type ChatMessage, type ChatRequest, type NativeCompaction, type Provider, type StreamEvent } from '../providers/types';
import { buildRequestMessages } from './build-request';
import { compactSession } from './compact-session';
import { createTurnCompaction } from './compaction-gates';
import { say, scripted, seedConversation, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';
import type { CompactionSettings } from './compaction-types';
import { compactForModel } from './model-switch';
import { runTurn } from './run-turn';

const setup = useCompactionEnv('native');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

const ITEM = { type: 'compaction', id: 'cmp_1', encrypted_content: 'enc-opaque' };
const NATIVE: NativeCompaction = { api: 'openai-responses', model: 'gpt-5.6', items: [ITEM], opaque: true };

/** A provider of the OpenAI Responses family whose answers play a script. */
function responsesLike(script: (request: ChatRequest, call: number) => AsyncGenerator<StreamEvent>, extra: Partial<Provider> = {}) {
	return scripted(script, { nativeApi: 'openai-responses', ...extra });
}

function turn(provider: Provider, settings: Partial<CompactionSettings> = {}) {
	const compaction = env.deps({ provider, model: 'gpt-5.6' }, settings);
	return { db, provider, model: 'gpt-5.6', profile: 'default', platform: 'web', hooks: env.bus.hooks, systemPrompt: 'SYS', checkpointMs: 0, compaction: createTurnCompaction(compaction, { resumed: false }) };
}

async function postCompactions() {
	await env.bus.hooks.settled();
	return env.bus.of('post_compaction');
}

describe('a compaction the provider made on its own while answering', () => {
	it('is folded in, announced once as provider_native / provider, and its item goes back unchanged', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 8);
		const { provider, requests } = responsesLike(async function* (_request, call) {
			if (call === 0) yield { type: 'native_compaction', native: NATIVE, summary: null };
			yield* say(call === 0 ? 'Answered after compacting.' : 'Next answer.');
		});
		await runTurn(turn(provider, { native: true, threshold: 0.9 }), { sessionId: id, text: 'Go on' });
		const events = await postCompactions();
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ session_id: id, old_session_id: '', kind: 'provider_native', reason: 'provider', messages_removed: 16 });
		// The request asked the provider to compact at the app's own threshold.
		expect(requests[0].context_management).toEqual({ compactAt: Math.floor(0.9 * 4000) });

		const live = await listActiveMessages(db, id);
		expect(live.map((row) => [row.role, row.kind])).toEqual([['user', 'summary'], ['user', 'message'], ['assistant', 'message']]);
		expect(live[0]).toMatchObject({ native: NATIVE, compaction: { kind: 'provider_native', reason: 'provider' } });
		expect(live[1].content).toBe('Go on');

		await runTurn(turn(provider, { native: true }), { sessionId: id, text: 'And then?' });
		const sent = requests[1].messages;
		expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'user']);
		expect(sent[1].native).toEqual({ ...NATIVE, provider: 'scripted' });
		expect(await postCompactions()).toHaveLength(1);
	});

	it('is recorded even while automatic compaction is cooling down after a failure', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 4);
		const session = (await getSession(db, id))!;
		await db.sessions.update(id, { compaction: { ...session.compaction, failures: 2, cooldown_until: Date.now() + 60_000 } });
		const { provider } = responsesLike(async function* () {
			yield { type: 'native_compaction', native: NATIVE, summary: null };
			yield* say('Done.');
		});
		await runTurn(turn(provider), { sessionId: id, text: 'Go on' });
		expect(await postCompactions()).toEqual([expect.objectContaining({ kind: 'provider_native', reason: 'provider' })]);
	});

	it('when the provider paused after compacting, the same turn asks again and stores one answer', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 4);
		const { provider, requests } = responsesLike(async function* (_request, call) {
			if (call === 0) {
				yield { type: 'native_compaction', native: { ...NATIVE, api: 'anthropic', opaque: false }, summary: 'They planned a trip.' };
				yield { type: 'done', finish_reason: 'compacted' };
			} else yield* say('Here is the answer.');
		});
		const result = await runTurn(turn(provider), { sessionId: id, text: 'Go on' });
		expect(result).toMatchObject({ status: 'complete', content: 'Here is the answer.' });
		expect(requests).toHaveLength(2);
		const live = await listActiveMessages(db, id);
		expect(live.map((row) => row.content)).toEqual(['They planned a trip.', 'Go on', 'Here is the answer.']);
		expect(await postCompactions()).toHaveLength(1);
	});
});

describe('compaction on demand by the provider', () => {
	const compactingProvider = (compact: (request: ChatRequest) => Promise<ChatMessage[]>) =>
		responsesLike(async function* () {
			yield* say('ok');
		}, { compact });

	it('sends the rows before the kept tail, with the system prompt, and stores what comes back in their place', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 10);
		const seen: ChatRequest[] = [];
		const { provider } = compactingProvider(async (request) => {
			seen.push(request);
			return [{ role: 'user', summary: true, content: 'Opaque summary.', native: NATIVE }];
		});
		const outcome = await compactSession(env.deps({ provider, model: 'gpt-5.6' }, { native: true }), { sessionId: id, reason: 'manual' });
		expect(outcome).toMatchObject({ status: 'compacted', payload: { kind: 'provider_native', reason: 'manual', messages_removed: 18 } });
		expect(await postCompactions()).toHaveLength(1);
		expect(seen[0].model).toBe('gpt-5.6');
		expect(seen[0].messages[0]).toEqual({ role: 'system', content: 'SYS' });
		expect(seen[0].messages.at(-1)?.content).toMatch(/^Answer 8:/);
		const live = await listActiveMessages(db, id);
		expect(live.map((row) => row.content.slice(0, 10))).toEqual(['Opaque sum', 'Question 9', 'Answer 9: ']);
		expect(live[0].native).toEqual({ ...NATIVE, provider: 'scripted' });
	});

	it('falls back to a summary written here when the provider cannot compact, announced as that', async () => {
		const id = await env.newSession();
		await seedConversation(db, id, 10);
		const { provider } = compactingProvider(async () => {
			throw new ProviderError('HTTP 400: compaction is not supported on this model', { kind: 'bad_request', status: 400 });
		});
		const summarizer = { provider: env.deps().provider, model: 'offline-mini', windowTokens: 32_000 };
		const outcome = await compactSession(env.deps({ provider, model: 'gpt-5.6', summarizer }, { native: true }), { sessionId: id, reason: 'pre_api' });
		expect(outcome).toMatchObject({ status: 'compacted', payload: { kind: 'summarize', reason: 'pre_api' } });
		expect(await postCompactions()).toEqual([expect.objectContaining({ kind: 'summarize', reason: 'pre_api' })]);
	});
});

describe('a model change', () => {
	async function sessionWithNative(): Promise<string> {
		const id = await env.newSession();
		await seedConversation(db, id, 6);
		const { provider } = responsesLike(async function* () {
			yield* say('ok');
		}, { compact: async () => [{ role: 'user', summary: true, content: 'The trip to Kyoto, in short.', native: NATIVE }] });
		await compactSession(env.deps({ provider, model: 'gpt-5.6' }, { native: true }), { sessionId: id, reason: 'manual' });
		await postCompactions();
		env.bus.events.length = 0;
		return id;
	}

	it('to a model that cannot read the provider item summarises locally first: summarize / unknown', async () => {
		const id = await sessionWithNative();
		const outcome = await compactForModel(env.deps(), id);
		expect(outcome).toMatchObject({ status: 'compacted', payload: { kind: 'summarize', reason: 'unknown' } });
		expect(await postCompactions()).toHaveLength(1);
		const live = await listActiveMessages(db, id);
		expect(live.some((row) => row.native)).toBe(false);
		// The provider's item stays stored (exported with the session), out of the context.
		expect((await listMessages(db, id)).filter((row) => row.native && row.active === 0)).toHaveLength(1);
	});

	it('to the same model at another provider entry (another account or server) summarises locally first', async () => {
		const id = await sessionWithNative();
		expect((await listActiveMessages(db, id)).find((row) => row.native)?.native?.provider).toBe('scripted');
		const { provider } = responsesLike(async function* () {
			yield* say('ok');
		}, { id: 'second-openai' });
		// Until then, a request to that entry carries the summary's text, not the item.
		const messages = buildRequestMessages({ systemPrompt: 'SYS', rows: await listActiveMessages(db, id), userSeq: -1, injected: '', provider: provider.id });
		expect(messages.some((message) => message.native)).toBe(false);
		expect(await compactForModel(env.deps({ provider, model: 'gpt-5.6' }), id)).toMatchObject({ status: 'compacted', payload: { kind: 'summarize', reason: 'unknown' } });
	});

	it('to a dated snapshot of the same model keeps the item and does nothing', async () => {
		const id = await sessionWithNative();
		const { provider } = responsesLike(async function* () {
			yield* say('ok');
		});
		expect(await compactForModel(env.deps({ provider, model: 'gpt-5.6-2026-03-01' }), id)).toBeNull();
		expect(await postCompactions()).toEqual([]);
	});
});
