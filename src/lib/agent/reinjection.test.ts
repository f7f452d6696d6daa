// The seed's pattern through the real turn loop: static/plugins/conventions.js marks the session
// on post_compaction and re-injects on the next pre_llm_call. Also the overflow retry.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { listMessages } from '../db/message-verbs';
import { RUNNER_KINDS, type RunnerKind } from '../plugins/test-host';
import { ProviderError, type ChatRequest } from '../providers/types';
import { say, scripted, seedConversation, type CompactionEnv } from './compaction-fixtures';
import { runTurn } from './run-turn';
import { MARKER, useConventions } from './test-conventions';

const conventions = useConventions();
let env: CompactionEnv;

/** The app's plugin host with conventions.js loaded, and the compaction set-up over its bus. */
async function withConventions(runner: RunnerKind = 'in-page') {
	env = await conventions.load(1000, runner);
}

const deps = conventions.deps;

/** How many times the conventions appear in a request (in any message). */
const carried = (request: ChatRequest) => request.messages.filter((m) => m.content.includes(MARKER)).length;
const lastUser = (request: ChatRequest) => request.messages.findLast((m) => m.role === 'user')!;

// In the page and across the isolation boundary, as plugins run in the app.
describe.each(RUNNER_KINDS)('re-injection after compaction, through the turn loop (%s)', (kind) => {
	it('after a pre_api compaction the next request carries the conventions once, and the one after does not', async () => {
		await withConventions(kind);
		const { provider, requests } = scripted(() => say('Noted.'));
		const id = await env.newSession();
		await seedConversation(env.db, id, 30);
		expect((await runTurn(deps(provider), { sessionId: id, text: 'Keep going' })).status).toBe('complete');
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toMatchObject([{ reason: 'pre_api' }]);
		expect(requests).toHaveLength(1);
		expect(carried(requests[0])).toBe(1);
		// Appended to the outgoing copy of the user's message, never stored as what they wrote.
		expect(lastUser(requests[0]).content.startsWith(`Keep going\n\n${MARKER}`)).toBe(true);
		expect((await listMessages(env.db, id)).findLast((r) => r.role === 'user')!.content).toBe('Keep going');

		await runTurn(deps(provider), { sessionId: id, text: 'Thanks' });
		expect(requests).toHaveLength(2);
		expect(carried(requests[1])).toBe(0);
	});

	it('after an overflow compaction the retried request already carries them', async () => {
		await withConventions(kind);
		const { provider, requests } = scripted(async function* (_request, call) {
			if (call === 0) throw new ProviderError('HTTP 400: prompt is too long: 210000 tokens > 200000 maximum', { kind: 'overflow', status: 400 });
			yield* say('Fits now.');
		});
		const id = await env.newSession();
		await seedConversation(env.db, id, 10);
		const result = await runTurn(deps(provider), { sessionId: id, text: 'Continue' });
		await env.bus.hooks.settled();
		expect(result).toMatchObject({ status: 'complete', content: 'Fits now.' });
		expect(env.bus.of('post_compaction')).toMatchObject([{ reason: 'overflow', kind: 'summarize' }]);
		expect(requests.map(carried)).toEqual([0, 1]);
		// The failed attempt leaves no row behind: one question, one answer at the end.
		const rows = (await listMessages(env.db, id)).filter((r) => r.active === 1 && r.kind === 'message');
		expect(rows.slice(-2).map((r) => [r.role, r.status])).toEqual([['user', 'complete'], ['assistant', 'complete']]);
	});
});

describe('overflow', () => {
	it('a provider that always overflows ends in a visible error after one compaction and two requests', async () => {
		env = conventions.withoutPlugins();
		const { provider, requests } = scripted(async function* () {
			yield* [];
			throw new ProviderError('HTTP 400: context_length_exceeded', { kind: 'overflow', status: 400 });
		});
		const id = await env.newSession();
		await seedConversation(env.db, id, 10);
		const result = await runTurn(deps(provider), { sessionId: id, text: 'Continue' });
		await env.bus.hooks.settled();
		expect(requests).toHaveLength(2);
		expect(env.bus.of('post_compaction')).toHaveLength(1);
		expect(result.status).toBe('error');
		expect(result.error).toMatch(/context_length_exceeded.*compacted once already/);
		const last = (await listMessages(env.db, id)).at(-1)!;
		expect(last).toMatchObject({ role: 'assistant', status: 'error' });
	});

	it('a stop reason saying the context window ran out (Anthropic\u2019s model_context_window_exceeded) is an overflow too', async () => {
		env = conventions.withoutPlugins();
		const { provider, requests } = scripted(async function* (_r, call) {
			yield { type: 'text', text: call === 0 ? 'Partial' : 'Whole answer.' };
			yield { type: 'done', finish_reason: call === 0 ? 'context_window_exceeded' : 'stop' };
		});
		const id = await env.newSession();
		await seedConversation(env.db, id, 10);
		const result = await runTurn(deps(provider), { sessionId: id, text: 'Continue' });
		await env.bus.hooks.settled();
		expect(result).toMatchObject({ status: 'complete', content: 'Whole answer.' });
		expect(requests).toHaveLength(2);
		expect(env.bus.of('post_compaction')).toMatchObject([{ reason: 'overflow' }]);
	});

	it('a compacted conversation is never a first turn again', async () => {
		await withConventions();
		const seen: boolean[] = [];
		env.bus.hooks.register('probe', 'pre_llm_call', ({ is_first_turn }) => void seen.push(is_first_turn));
		const { provider } = scripted(() => say('Ok.'));
		const id = await env.newSession();
		await seedConversation(env.db, id, 30);
		await runTurn(deps(provider), { sessionId: id, text: 'Next' });
		expect(env.bus.of('post_compaction')).toHaveLength(1);
		expect(seen).toEqual([false]);
	});
});
