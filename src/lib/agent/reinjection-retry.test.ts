// The guide's re-injection pattern (static/plugins/conventions.js) and Retry, through the real
// turn loop: Retry of a turn that failed, and of the completed turn that carried the
// conventions, sends them again; the next new turn does not.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ProviderError, type ChatRequest, type Provider } from '../providers/types';
import { say, scripted, seedConversation, type CompactionEnv } from './compaction-fixtures';
import { retryTurn, runTurn } from './run-turn';
import { MARKER, useConventions } from './test-conventions';

const conventions = useConventions();
let env: CompactionEnv;

async function withConventions() {
	// A generous hook timeout: a loaded machine must not turn a slow storage write into a skipped plugin.
	env = await conventions.load(10_000);
}

const deps = (provider: Provider) => conventions.deps(provider);

const carries = (request: ChatRequest) => request.messages.findLast((m) => m.role === 'user')!.content.includes(MARKER);

describe('re-injection and Retry, through the turn loop', () => {
	it('a failed turn leaves the mark: its Retry carries the conventions', async () => {
		await withConventions();
		const { provider, requests } = scripted(async function* (_request, call) {
			if (call === 0) throw new ProviderError('HTTP 500: upstream failed', { kind: 'server', status: 500 });
			yield* say('Done.');
		});
		const id = await env.newSession();
		await seedConversation(env.db, id, 30);
		expect((await runTurn(deps(provider), { sessionId: id, text: 'Keep going' })).status).toBe('error');
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toHaveLength(1);
		expect((await retryTurn(deps(provider), { sessionId: id })).status).toBe('complete');
		await env.bus.hooks.settled();
		expect(requests.map(carries)).toEqual([true, true]);
	});

	it('Retry of the completed turn that carried them carries them again; the next turn does not', async () => {
		await withConventions();
		const { provider, requests } = scripted(() => say('Noted.'));
		const id = await env.newSession();
		await seedConversation(env.db, id, 30);
		expect((await runTurn(deps(provider), { sessionId: id, text: 'Keep going' })).status).toBe('complete');
		await env.bus.hooks.settled();
		expect((await retryTurn(deps(provider), { sessionId: id })).status).toBe('complete');
		await env.bus.hooks.settled();
		expect((await runTurn(deps(provider), { sessionId: id, text: 'Thanks' })).status).toBe('complete');
		await env.bus.hooks.settled();
		expect(env.bus.of('post_compaction')).toHaveLength(1);
		expect(requests.map(carries)).toEqual([true, true, false]);
	});
});
