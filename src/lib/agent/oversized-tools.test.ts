// A request the meter says cannot fit is not sent when plugins' tools make it too large: the
// turn ends with an error naming the plugins (the largest first, as many as take the room),
// before any plugin hook, compaction or provider request; a conversation too large for the
// window, with small tools, still goes through compaction as before.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { listMessages } from '../db/message-verbs';
import type { ToolSchema } from '../providers/types';
import { createTurnCompaction } from './compaction-gates';
import { say, scripted, seedConversation, useCompactionEnv, type CompactionEnv } from './compaction-fixtures';
import { oversizedTools } from './oversized-tools';
import { runTurn } from './run-turn';
import type { TurnDeps } from './turn-deps';

const setup = useCompactionEnv('oversized-tools');
let env: CompactionEnv;
beforeEach(() => {
	env = setup.current();
});

/** A tool of about `tokens` tokens (words of two tokens each: " w" and a digit). */
function tool(name: string, tokens: number): ToolSchema {
	return { name, description: Array.from({ length: Math.round(tokens / 2) }, (_, i) => `w${i % 10}`).join(' '), parameters: { type: 'object' } };
}

const PLUGINS: Record<string, { id: string; name: string }> = {
	big_a: { id: 'bulky', name: 'Bulky tools' },
	big_b: { id: 'bulky', name: 'Bulky tools' },
	mid: { id: 'middling', name: 'Middling tools' },
	other: { id: 'other', name: 'Other tools' },
	small: { id: 'tiny', name: 'Tiny tools' }
};

function turnDeps(tools: ToolSchema[], collected: string[]) {
	const { provider, requests } = scripted(() => say('Answered.'));
	const compaction = env.deps({ provider, request: { systemPrompt: 'SYS', reservedOutput: 400, toolSchemas: tools }, toolOwner: (name) => PLUGINS[name] });
	env.bus.hooks.register('watcher', 'pre_llm_call', () => void collected.push('pre_llm_call'));
	const deps: TurnDeps = {
		db: env.db,
		provider,
		model: 'offline-mini',
		profile: 'default',
		platform: 'web',
		hooks: env.bus.hooks,
		systemPrompt: 'SYS',
		checkpointMs: 0,
		tools: { schemas: () => tools, run: async () => 'ran' },
		compaction: createTurnCompaction(compaction, { resumed: false })
	};
	return { deps, requests, compaction };
}

describe('a turn whose plugin tools do not fit the window', () => {
	it('sends nothing and says which plugins’ tools take the room, largest first, and no more of them than needed', async () => {
		// A window of 4,000, 400 of it kept for the answer: without the bulky plugin's tools (2,400) it is
		// still over; without the middling one's (2,200) too, it fits.
		const tools = [tool('big_a', 1_200), tool('small', 20), tool('mid', 2_200), tool('other', 1_800), tool('big_b', 1_200)];
		const collected: string[] = [];
		const { deps, requests } = turnDeps(tools, collected);
		const sessionId = await env.newSession();
		const result = await runTurn(deps, { sessionId, text: 'Hello' });
		expect(requests).toEqual([]);
		expect(collected).toEqual([]);
		expect(result.status).toBe('error');
		expect(result.error).toMatch(
			/^Nothing was sent: the tools of plugins "Bulky tools" \(2,\d{3} tokens\) and "Middling tools" \(2,\d{3} tokens\) make the request [\d,]+ tokens, more than the model's context window of 4,000 tokens\. Turn those plugins off on the Plugins page, or choose a model with a larger window\.$/
		);
		const rows = await listMessages(env.db, sessionId);
		expect(rows.map((row) => [row.role, row.status, row.content])).toEqual([
			['user', 'complete', 'Hello'],
			['assistant', 'error', '']
		]);
		expect(rows[1].error).toBe(result.error);
	});

	it('names one plugin alone when leaving out its tools is enough', async () => {
		const tools = [tool('big_a', 2_000), tool('big_b', 1_800), tool('mid', 300)];
		const { deps, requests } = turnDeps(tools, []);
		const result = await runTurn(deps, { sessionId: await env.newSession(), text: 'Hello' });
		expect(requests).toEqual([]);
		expect(result.error).toMatch(/^Nothing was sent: the tools of plugin "Bulky tools" \(3,\d{3} tokens\) make the request [\d,]+ tokens, more than the model's context window of 4,000 tokens\. Turn the plugin off/);
	});

	it('sends the request when the tools fit, and leaves a long conversation with small tools to compaction', async () => {
		const { deps, requests } = turnDeps([tool('mid', 1_000), tool('small', 20)], []);
		expect((await runTurn(deps, { sessionId: await env.newSession(), text: 'Hello' })).status).toBe('complete');
		expect(requests).toHaveLength(1);
		// Over the window by its conversation: compaction's to handle, not a refusal.
		const long = await env.newSession();
		await seedConversation(env.db, long, 30, 120);
		const { compaction } = turnDeps([tool('small', 20)], []);
		expect(await oversizedTools(compaction, long, [], 'whole')).toBeNull();
		expect(await oversizedTools(compaction, long, [], 'least')).toBeNull();
	});

	it('counts the conversation only for the request about to go: before the turn, what compaction cannot shrink', async () => {
		// Tools of 2,500 fit beside the answer's room, but not with about 2,000 tokens of conversation.
		const tools = [tool('mid', 2_500)];
		const long = await env.newSession();
		await seedConversation(env.db, long, 8, 200);
		const { compaction } = turnDeps(tools, []);
		expect(await oversizedTools(compaction, long, [], 'least')).toBeNull();
		expect(await oversizedTools(compaction, long, [], 'whole')).toMatch(/^Nothing was sent: the tools of plugin "Middling tools" \(2,\d{3} tokens\)/);
	});
});
