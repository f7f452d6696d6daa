// Every request built after a compaction is valid for each adapter: no tool result without its
// call, no call without its result, Anthropic's role order, and the summary before the tail.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PalimpsestDb } from '../db/database';
import { listActiveMessages } from '../db/compaction-verbs';
import { appendMessages, type NewMessage } from '../db/message-verbs';
import { buildAnthropicBody } from '../providers/anthropic-request';
import { buildOpenAIBody } from '../providers/openai-request';
import type { ChatMessage } from '../providers/types';
import type { CompactionKind } from '../hooks/hook-payloads';
import { buildRequestMessages } from './build-request';
import { compactSession } from './compact-session';
import { filler, type CompactionEnv, useCompactionEnv } from './compaction-fixtures';

const setup = useCompactionEnv('requests');
let env: CompactionEnv;
let db: PalimpsestDb;
beforeEach(() => {
	env = setup.current();
	db = env.db;
});

/** Rounds of: a question, a call of two tools, their two results, an answer. */
async function toolHeavySession(rounds: number): Promise<string> {
	const id = await env.newSession();
	const rows: NewMessage[] = [];
	const base = { status: 'complete', kind: 'message', created_at: 1 } as const;
	for (let i = 0; i < rounds; i++) {
		const calls = [`c${i}a`, `c${i}b`].map((callId) => ({ id: callId, name: 'grep', arguments: `{"q":"${callId}"}` }));
		rows.push({ ...base, id: `u${i}`, role: 'user', content: `Search round ${i}. ${filler(i, 30)}` });
		rows.push({ ...base, id: `c${i}`, role: 'assistant', content: '', tool_calls: calls });
		for (const call of calls) rows.push({ ...base, id: `r${call.id}`, role: 'tool', tool_call_id: call.id, content: filler(i + 2, 150) });
		rows.push({ ...base, id: `a${i}`, role: 'assistant', content: `Round ${i} done. ${filler(i + 3, 40)}` });
	}
	await appendMessages(db, id, rows);
	return id;
}

function expectPairedToolCalls(messages: ChatMessage[]): void {
	messages.forEach((message, index) => {
		if (message.role === 'tool') {
			let call = index - 1;
			while (messages[call]?.role === 'tool') call -= 1;
			expect(messages[call]?.tool_calls?.map((c) => c.id), `result ${message.tool_call_id} follows its call`).toContain(message.tool_call_id);
		}
		for (const call of message.tool_calls ?? []) {
			const answered = messages.slice(index + 1).findIndex((m) => m.role !== 'tool');
			const results = messages.slice(index + 1, answered < 0 ? undefined : index + 1 + answered);
			expect(results.map((r) => r.tool_call_id), `call ${call.id} has its result`).toContain(call.id);
		}
	});
}

describe.each<[string, CompactionKind, number]>([
	['a summary with a tail that starts mid tool round', 'summarize', 330],
	['pruned tool outputs', 'prune_tool_results', 330],
	['a native compaction', 'provider_native', 330]
])('requests after %s', (_name, kind, tailTokens) => {
	it('pair every tool call with its results, for OpenAI and Anthropic alike', async () => {
		const id = await toolHeavySession(6);
		const outcome = await compactSession(env.deps({}, { tailTokens }), { sessionId: id, reason: 'manual', kind });
		expect(outcome.status).toBe('compacted');
		await appendMessages(db, id, [{ id: 'next', role: 'user', kind: 'message', status: 'complete', created_at: 2, content: 'And now?' }]);
		const rows = await listActiveMessages(db, id);
		const messages = buildRequestMessages({ systemPrompt: 'SYS', rows, userSeq: rows.at(-1)!.seq, injected: 'CTX' });
		expect(messages[0]).toEqual({ role: 'system', content: 'SYS' });
		expectPairedToolCalls(messages);
		expect(messages.at(-1)).toEqual({ role: 'user', content: 'And now?\n\nCTX' });
		if (kind !== 'prune_tool_results') {
			// The summary comes first after the system prompt, before everything it did not replace.
			expect(messages[1].role).toBe('user');
			expect(messages[1].content).toMatch(/compacted/);
		}

		const openai = buildOpenAIBody({ model: 'gpt-4o', messages }) as { messages: Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }> };
		const known = new Set<string>();
		for (const message of openai.messages) {
			for (const call of message.tool_calls ?? []) known.add(call.id);
			if (message.role === 'tool') expect(known.has(message.tool_call_id!)).toBe(true);
		}

		const anthropic = buildAnthropicBody({ model: 'claude-sonnet-4-5', messages }) as {
			system: string;
			messages: Array<{ role: string; content: Array<{ type: string; id?: string; tool_use_id?: string }> }>;
		};
		expect(anthropic.system).toBe('SYS');
		expect(anthropic.messages[0].role).toBe('user');
		anthropic.messages.forEach((message, i) => {
			if (i > 0) expect(message.role, `turn ${i} alternates`).not.toBe(anthropic.messages[i - 1].role);
			const uses = message.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
			if (uses.length) {
				const results = anthropic.messages[i + 1]?.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
				expect(results, 'tool_use answered in the next user turn').toEqual(expect.arrayContaining(uses));
			}
		});
	});
});
