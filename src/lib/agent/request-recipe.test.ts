// "What the model received" is rebuilt from a compact recipe on the answer: for every wire
// protocol, the rebuilt body is the body the provider received, summary and plugin context
// included, and no key is shown.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useMockProvider } from '../../../tests/support/use-mock-provider';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages } from '../db/message-verbs';
import { readRequestFrame } from '../db/request-frames';
import { readAllSettings } from '../db/settings-verbs';
import { createProvider } from '../providers/create-provider';
import type { ProviderPreset } from '../providers/types';
import { createSession } from '../sessions/session-lifecycle';
import { describeRequest } from './describe-request';
import { expandRuns, seqRuns, type RequestFrame } from './request-recipe';
import { keepEarlierInjected } from './record-request';
import { runTurn } from './run-turn';
import type { TurnDeps, TurnHooks } from './turn-deps';

const mock = useMockProvider();
let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`recipe-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const KEY = 'sk-secret-123';
const TOOLS = [{ name: 'lookup', description: 'Looks a word up', parameters: { type: 'object', properties: { word: { type: 'string' } } } }];
const hooks = (text: string) =>
	({ collect: async () => [{ plugin_id: 'memo', text }], decide: async () => ({}), notify: async () => {} }) as unknown as TurnHooks;

function depsFor(preset: ProviderPreset, extra: Partial<TurnDeps> = {}): TurnDeps {
	const provider = createProvider({ id: `p-${preset}`, preset, label: preset, base_url: preset === 'anthropic' ? mock.url : `${mock.url}/v1`, api_key: KEY, model: 'mock-model' });
	return {
		db, provider, model: 'mock-model', profile: 'default', platform: 'web', systemPrompt: 'SYS', checkpointMs: 0,
		hooks: hooks('Remember: tabs, not spaces.'),
		pluginName: () => 'Memory plugin',
		tools: { schemas: () => TOOLS, run: async () => '' },
		...extra
	};
}

/** A session whose first exchange was compacted into a summary (kept inactive, as compaction leaves it). */
async function compactedSession() {
	const session = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'x', model: 'mock-model' });
	await appendMessages(db, session.id, [
		{ id: 'u0', role: 'user', content: 'Old question', status: 'complete', kind: 'message', created_at: 1, active: 0, compacted_by: 'c1' },
		{ id: 'a0', role: 'assistant', content: 'Old answer', status: 'complete', kind: 'message', created_at: 2, active: 0, compacted_by: 'c1' },
		{ id: 's0', role: 'user', content: '## Goal\nTalk about tabs', status: 'complete', kind: 'summary', created_at: 3 },
		{ id: 'n0', role: 'assistant', content: '/help output', status: 'complete', kind: 'command', created_at: 4 }
	]);
	return session;
}

async function lastAnswer(sessionId: string) {
	const rows = await listMessages(db, sessionId);
	const answer = rows.findLast((row) => row.role === 'assistant' && row.kind === 'message')!;
	const frame = (await readRequestFrame(db, answer.sent!.frame)) as RequestFrame;
	return { rows, answer, frame };
}

describe('What the model received', () => {
	it.each(['custom', 'openai', 'anthropic'] as const)('rebuilds the %s body the provider received, byte for byte after JSON normalisation', async (preset) => {
		const session = await compactedSession();
		await runTurn(depsFor(preset), { sessionId: session.id, text: 'First' });
		await runTurn(depsFor(preset), { sessionId: session.id, text: 'Second' });
		const received = mock.requests.filter((r) => r.method === 'POST');
		expect(received).toHaveLength(2);
		const { rows, answer, frame } = await lastAnswer(session.id);
		const described = await describeRequest(answer.sent!, frame, rows);
		expect(JSON.parse(described.json)).toEqual(received[1].body);
		expect(described.exact).toBe(true);
		// The summary and the plugin's context are marked, the compacted rows and the command are not sent.
		expect(described.parts.map((p) => p.label)).toEqual(['System prompt', 'Summary (compaction)', 'You', 'Assistant', 'You']);
		expect(described.parts.at(-1)?.injected).toEqual([{ plugin: 'Memory plugin', text: 'Remember: tabs, not spaces.' }]);
		expect(described.json).not.toContain('Old question');
		// The key never shows; the placeholder does.
		expect(JSON.stringify(described)).not.toContain(KEY);
		expect(described.curl).toContain(preset === 'anthropic' ? '$ANTHROPIC_API_KEY' : 'Bearer $OPENAI_API_KEY');
		expect(described.curl).toContain(received[1].path);
		// The provider's usage is kept on the answer.
		expect(answer.usage?.input_tokens).toBeGreaterThan(0);
	});

	it.each(['custom', 'openai', 'anthropic'] as const)("sends a chat's parameters in the %s body, and rebuilds them exactly, named for the dialog", async (preset) => {
		const session = await compactedSession();
		const params = { temperature: 0.25, top_p: 0.8, max_tokens: 640 };
		await runTurn(depsFor(preset, { systemPrompt: 'Answer as a pirate.', params }), { sessionId: session.id, text: 'Ahoy' });
		const [received] = mock.requests.filter((r) => r.method === 'POST');
		expect(received.body).toMatchObject({ temperature: 0.25, top_p: 0.8 });
		expect(JSON.stringify(received.body)).toContain('Answer as a pirate.');
		const { rows, answer, frame } = await lastAnswer(session.id);
		expect(frame.params).toEqual(params);
		const described = await describeRequest(answer.sent!, frame, rows);
		expect(JSON.parse(described.json)).toEqual(received.body);
		expect(described.exact).toBe(true);
		expect(described.params).toEqual(['Temperature 0.25', 'Top P 0.8', 'Max answer tokens 640']);
	});

	it('keeps a compact recipe: the rows as runs of seqs, the frame stored once for many answers', async () => {
		const session = await compactedSession();
		for (const text of ['One', 'Two', 'Three']) await runTurn(depsFor('custom'), { sessionId: session.id, text });
		const { answer } = await lastAnswer(session.id);
		expect(answer.sent!.seqs).toEqual([[2, 1], [4, 5]]);
		expect(JSON.stringify(answer.sent).length).toBeLessThan(400);
		expect(JSON.stringify(answer.sent)).not.toContain('SYS');
		const frames = (await db.settings.toArray()).filter((row) => row.key.startsWith('request-frame:'));
		expect(frames).toHaveLength(1);
		// Frames are no settings.
		expect(Object.keys(await readAllSettings(db)).some((key) => key.startsWith('request-frame:'))).toBe(false);
	});

	it('still shows the summary an answer was sent with after its compaction was undone', async () => {
		const session = await compactedSession();
		await runTurn(depsFor('custom'), { sessionId: session.id, text: 'Hello' });
		const { rows, answer, frame } = await lastAnswer(session.id);
		const undone = rows.map((row) => (row.kind === 'summary' ? { ...row, kind: 'notice' as const, compaction: { id: 'c1', kind: 'summarize' as const, reason: 'manual' as const, before_tokens: 1, after_tokens: 1, messages_removed: 2, at: 3, undone_at: 9 } } : row));
		const described = await describeRequest(answer.sent!, frame, undone);
		expect(described.exact).toBe(true);
		expect(described.parts.map((p) => p.label)).toContain('Summary (compaction)');
	});

	it('says when the conversation changed since the request was sent', async () => {
		const session = await compactedSession();
		await runTurn(depsFor('custom'), { sessionId: session.id, text: 'Hello' });
		const { rows, answer, frame } = await lastAnswer(session.id);
		const edited = rows.map((row) => (row.content === 'Hello' ? { ...row, content: 'Changed' } : row));
		expect((await describeRequest(answer.sent!, frame, edited)).exact).toBe(false);
	});
});

describe('seq runs', () => {
	it('packs whole seqs into runs and keeps fractional ones alone', () => {
		const seqs = [0, 1, 2, 2.5, 3, 4, 7, 8];
		expect(seqRuns(seqs)).toEqual([[0, 3], [2.5], [3, 2], [7, 2]]);
		expect(expandRuns(seqRuns(seqs))).toEqual(seqs);
	});
});

describe('a later request of the same turn', () => {
	it('leaves the earlier answer the plugin context it was sent with', async () => {
		const session = await compactedSession();
		await runTurn(depsFor('custom'), { sessionId: session.id, text: 'Hello' });
		const { answer } = await lastAnswer(session.id);
		const key: [string, number] = [answer.session_id, answer.seq];
		const earlier = [{ plugin_id: 'memo', plugin_name: 'Memory plugin', text: 'Remember: tabs, not spaces.' }];
		await keepEarlierInjected(db, [{ key, sent: answer.sent! }], earlier, earlier);
		expect((await db.messages.get(key))?.sent?.injected).toBeUndefined();
		await keepEarlierInjected(db, [{ key, sent: answer.sent! }], earlier, [{ ...earlier[0], text: 'Something else' }]);
		expect((await db.messages.get(key))?.sent?.injected).toEqual(earlier);
	});
});
