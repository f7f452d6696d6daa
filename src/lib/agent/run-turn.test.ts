import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PalimpsestDb } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { createSession } from '../sessions/session-lifecycle';
import { ProviderError, type Provider } from '../providers/types';
import { retryTurn, runTurn } from './run-turn';
import { say, scripted } from './compaction-fixtures';
import type { TurnDeps, TurnHooks } from './turn-deps';

let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`turn-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

function depsFor(provider: Provider, extra: Partial<TurnDeps> = {}): TurnDeps {
	return { db, provider, model: 'm', profile: 'default', platform: 'web', systemPrompt: 'SYS', checkpointMs: 0, ...extra };
}

async function newSession() {
	return createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'm' });
}

describe('runTurn', () => {
	it('streams the answer, stores both messages complete, and sends the transcript', async () => {
		const { provider, requests } = scripted(() => say('Hel', 'lo', '!'));
		const session = await newSession();
		const texts: string[] = [];
		const result = await runTurn(depsFor(provider), {
			sessionId: session.id,
			text: 'Hi there',
			onEvent: (e) => e.type === 'text' && texts.push(e.text)
		});
		expect(result).toMatchObject({ status: 'complete', content: 'Hello!' });
		expect(texts).toEqual(['Hel', 'Hello', 'Hello!']);
		const rows = await listMessages(db, session.id);
		expect(rows.map((r) => [r.role, r.content, r.status])).toEqual([
			['user', 'Hi there', 'complete'],
			['assistant', 'Hello!', 'complete']
		]);
		await runTurn(depsFor(provider), { sessionId: session.id, text: 'Again' });
		expect(requests[1].messages.map((m) => m.content)).toEqual(['SYS', 'Hi there', 'Hello!', 'Again']);
	});

	it('keeps the partial answer as aborted when stopped, and nothing is written after', async () => {
		const controller = new AbortController();
		const { provider } = scripted(async function* (request) {
			yield { type: 'text', text: 'partial ' };
			controller.abort();
			await new Promise((r) => setTimeout(r, 5));
			if (request.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
			yield { type: 'text', text: 'never' };
		});
		const session = await newSession();
		const result = await runTurn(depsFor(provider), { sessionId: session.id, text: 'Go', signal: controller.signal });
		expect(result.status).toBe('aborted');
		const rows = await listMessages(db, session.id);
		expect(rows[1]).toMatchObject({ status: 'aborted', content: 'partial ' });
	});

	it('marks a stream cut without its terminator incomplete and an error as error, then retries', async () => {
		let fail = true;
		const { provider } = scripted(async function* () {
			yield { type: 'text', text: 'half' };
			if (fail) throw new ProviderError('The stream ended early.', { kind: 'incomplete' });
			yield { type: 'done', finish_reason: 'stop' };
		});
		const session = await newSession();
		const first = await runTurn(depsFor(provider), { sessionId: session.id, text: 'Q' });
		expect(first.status).toBe('incomplete');
		expect((await listMessages(db, session.id))[1]).toMatchObject({ status: 'incomplete', content: 'half' });
		fail = false;
		const again = await retryTurn(depsFor(provider), { sessionId: session.id });
		expect(again.status).toBe('complete');
		const rows = await listMessages(db, session.id);
		expect(rows.map((r) => [r.role, r.status])).toEqual([['user', 'complete'], ['assistant', 'complete']]);
		expect((await db.sessions.get(session.id))?.message_count).toBe(2);
	});

	it('appends pre_llm_call context to the outgoing copy only, and records the disclosure', async () => {
		const { provider, requests } = scripted(() => say('ok'));
		const session = await newSession();
		const seen: string[] = [];
		const hooks: TurnHooks = {
			collect: async () => [
				{ plugin_id: 'a', text: 'Use tabs.' },
				{ plugin_id: 'b', text: 'Be brief.' }
			],
			notify: async (name) => void seen.push(name),
			decide: async () => ({ block: false })
		};
		await runTurn(depsFor(provider, { hooks, pluginName: (id) => `Plugin ${id}` }), { sessionId: session.id, text: 'Hello' });
		const sent = requests[0].messages;
		expect(sent[0]).toEqual({ role: 'system', content: 'SYS' });
		expect(sent[1].content).toBe('Hello\n\nUse tabs.\n\nBe brief.');
		const [user] = await listMessages(db, session.id);
		expect(user.content).toBe('Hello');
		expect(user.injected).toEqual([
			{ plugin_id: 'a', plugin_name: 'Plugin a', text: 'Use tabs.' },
			{ plugin_id: 'b', plugin_name: 'Plugin b', text: 'Be brief.' }
		]);
		expect(seen).toContain('post_llm_call');
	});

	it('runs tool calls, lets pre_tool_call block, and answers with the results', async () => {
		const { provider, requests } = scripted(async function* (_req, call) {
			if (call === 0) {
				yield { type: 'tool_call', call: { id: 't1', name: 'clock', arguments: '{}' } };
				yield { type: 'tool_call', call: { id: 't2', name: 'rm', arguments: '{"path":"/"}' } };
				yield { type: 'done', finish_reason: 'tool_calls' };
			} else yield* say('It is noon.');
		});
		const session = await newSession();
		const hooks: TurnHooks = {
			collect: async () => [],
			notify: async () => {},
			decide: async (_n, p) => (p.tool_name === 'rm' ? { block: true, reason: 'too dangerous' } : { block: false })
		};
		const tools = { schemas: () => [], run: async (name: string) => `${name}: 12:00` };
		const result = await runTurn(depsFor(provider, { hooks, tools }), { sessionId: session.id, text: 'Time?' });
		expect(result.content).toBe('It is noon.');
		const toolMessages = requests[1].messages.filter((m) => m.role === 'tool');
		expect(toolMessages.map((m) => m.content)).toEqual(['clock: 12:00', 'Tool call blocked: too dangerous']);
	});

	it('stops writing when the session is deleted mid-stream', async () => {
		const { provider } = scripted(async function* () {
			yield { type: 'text', text: 'a' };
			await db.transaction('rw', db.sessions, db.messages, async () => {
				await db.messages.clear();
				await db.sessions.clear();
			});
			yield { type: 'text', text: 'b' };
			yield { type: 'done', finish_reason: 'stop' };
		});
		const session = await newSession();
		const result = await runTurn(depsFor(provider), { sessionId: session.id, text: 'x' });
		// The turn notices at its next checkpoint and ends as stopped, not as a finished answer.
		expect(result).toMatchObject({ status: 'aborted' });
		expect(await db.messages.count()).toBe(0);
		expect(await db.sessions.count()).toBe(0);
	});
});

describe('retryTurn', () => {
	it('keeps commands run after the answer, and replaces only the answer', async () => {
		let n = 0;
		const { provider } = scripted(() => say(n++ ? 'second answer' : 'first answer'));
		const session = await newSession();
		await runTurn(depsFor(provider), { sessionId: session.id, text: 'Q' });
		const { appendMessages } = await import('../db/message-verbs');
		await appendMessages(db, session.id, [
			{ id: 'c', role: 'user', kind: 'command', content: '/nosuch', status: 'complete', created_at: 1 },
			{ id: 'o', role: 'assistant', kind: 'command', content: 'Unknown command', status: 'error', created_at: 1 }
		]);
		await retryTurn(depsFor(provider), { sessionId: session.id });
		expect((await listMessages(db, session.id)).map((r) => r.content)).toEqual(['Q', '/nosuch', 'Unknown command', 'second answer']);
		expect((await db.sessions.get(session.id))?.message_count).toBe(4);
	});

	it('answers a tool call left without its result with a stub, so the request stays valid', async () => {
		const { provider, requests } = scripted(() => say('ok'));
		const session = await newSession();
		const { appendMessages } = await import('../db/message-verbs');
		const base = { kind: 'message', status: 'complete', created_at: 1 } as const;
		await appendMessages(db, session.id, [
			{ ...base, id: 'u', role: 'user', content: 'time?' },
			{ ...base, id: 'a', role: 'assistant', content: '', tool_calls: [{ id: 't1', name: 'clock', arguments: '{}' }, { id: 't2', name: 'clock', arguments: '{}' }] },
			{ ...base, id: 't', role: 'tool', content: 'noon', tool_call_id: 't1' }
		]);
		await runTurn(depsFor(provider), { sessionId: session.id, text: 'next' });
		const tools = requests[0].messages.filter((m) => m.role === 'tool');
		expect(tools.map((m) => [m.tool_call_id, m.content])).toEqual([
			['t2', 'Tool call interrupted: no result was recorded.'],
			['t1', 'noon']
		]);
	});
});

describe('Stop before the model is asked', () => {
	it('ends the wait for plugins at once, keeps the message, and adds no answer', async () => {
		const { provider, requests } = scripted(() => say('late'));
		const session = await newSession();
		const controller = new AbortController();
		const hooks: TurnHooks = {
			collect: () => new Promise(() => {}),
			notify: async () => {},
			decide: async () => ({ block: false })
		};
		const turn = runTurn(depsFor(provider, { hooks }), { sessionId: session.id, text: 'Hi', signal: controller.signal });
		await new Promise((r) => setTimeout(r, 20));
		controller.abort();
		expect(await turn).toEqual({ status: 'aborted', content: '', sessionId: session.id });
		expect(requests).toHaveLength(0);
		expect((await listMessages(db, session.id)).map((r) => r.role)).toEqual(['user']);
		// Retry then answers the message that was left without one.
		const again = await retryTurn(depsFor(provider), { sessionId: session.id });
		expect(again).toMatchObject({ status: 'complete', content: 'late' });
	});
});

describe('Stop while tools run', () => {
	it('ends a hanging tool at once and records the calls as stopped', async () => {
		const { provider } = scripted(async function* () {
			yield { type: 'tool_call', call: { id: 't1', name: 'slow', arguments: '{}' } };
			yield { type: 'tool_call', call: { id: 't2', name: 'slow', arguments: '{}' } };
			yield { type: 'done', finish_reason: 'tool_calls' };
		});
		const session = await newSession();
		const controller = new AbortController();
		let started = () => {};
		const running = new Promise<void>((resolve) => (started = resolve));
		const tools = { schemas: () => [], run: () => (started(), new Promise<string>(() => {})) };
		const turn = runTurn(depsFor(provider, { tools }), { sessionId: session.id, text: 'go', signal: controller.signal });
		await running;
		controller.abort();
		expect((await turn).status).toBe('aborted');
		const rows = await listMessages(db, session.id);
		expect(rows.map((r) => [r.role, r.status])).toEqual([
			['user', 'complete'],
			['assistant', 'complete'],
			['tool', 'aborted'],
			['tool', 'aborted']
		]);
	});
});
