// The guide's re-injection pattern (static/plugins/conventions.js) and Retry, through the real
// turn loop: Retry of a turn that failed, and of the completed turn that carried the
// conventions, sends them again; the next new turn does not.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHost } from '../plugins/test-host';
import { createOfflineProvider } from '../providers/offline';
import { ProviderError, type ChatRequest, type Provider } from '../providers/types';
import { createTurnCompaction } from './compaction-gates';
import { compactionEnv, recordingBus, say, scripted, seedConversation, type CompactionEnv } from './compaction-fixtures';
import { retryTurn, runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MARKER = 'Team conventions (restated after the conversation was compacted)';

let env: CompactionEnv;
let close = async () => {};
afterEach(async () => {
	env.counter.dispose();
	await close();
});

async function withConventions() {
	// A generous hook timeout: a loaded machine must not turn a slow storage write into a skipped plugin.
	const t = makeHost(10_000);
	close = async () => (t.db.close(), await t.close());
	const url = 'https://plugins.test/conventions.js';
	t.served[url] = { body: readFileSync(resolve(ROOT, 'static/plugins/conventions.js'), 'utf8') };
	expect(await t.host.load(await t.row(url))).toMatchObject({ ok: true });
	env = compactionEnv(t.db, recordingBus(t.hooks));
}

function deps(provider: Provider): TurnDeps {
	const offline = createOfflineProvider({ delayMs: 0 });
	const compaction = env.deps({ provider, summarizer: { provider: offline, model: 'offline-mini', windowTokens: 32_000 } });
	return {
		db: env.db, provider, model: 'offline-mini', profile: 'default', platform: 'web', hooks: env.bus.hooks,
		systemPrompt: 'SYS', checkpointMs: 0, compaction: createTurnCompaction(compaction, { resumed: false })
	};
}

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
