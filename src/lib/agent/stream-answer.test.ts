import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { providerOnMock, useMockProvider } from '../../../tests/support/use-mock-provider';
import { PalimpsestDb } from '../db/database';
import { appendMessages, listMessages, updateMessage } from '../db/message-verbs';
import type { Provider, ProviderPreset, StreamEvent } from '../providers/types';
import { createSession } from '../sessions/session-lifecycle';
import { retryTurn, runTurn } from './run-turn';
import { CUT_SHORT_MESSAGES, cutShortMessage } from './cut-short';
import { OUTPUT_LIMIT_MESSAGE, streamAnswer } from './stream-answer';
import type { TurnDeps } from './turn-deps';

let db: PalimpsestDb;
beforeEach(() => {
	db = new PalimpsestDb(`stream-${crypto.randomUUID()}`);
});
afterEach(async () => {
	db.close();
	await db.delete();
});

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

function scripted(script: () => AsyncGenerator<StreamEvent>): Provider {
	return { id: 'scripted', label: 'Scripted', offline: true, stream: script };
}

function depsFor(provider: Provider, extra: Partial<TurnDeps> = {}): TurnDeps {
	return { db, provider, model: 'mock-model', profile: 'default', platform: 'web', systemPrompt: 'SYS', ...extra };
}

async function newSession() {
	return createSession({ db, profile: 'default', platform: 'web' }, { provider: 'scripted', model: 'mock-model' });
}

describe('streamAnswer checkpoints', () => {
	it('saves the text already shown when the stream goes quiet', async () => {
		let resume = () => {};
		const quiet = new Promise<void>((done) => (resume = done));
		const provider = scripted(async function* () {
			yield { type: 'text', text: 'Hello' };
			yield { type: 'text', text: ' world' };
			// A slow server, or a long tool call whose arguments show no text.
			await quiet;
			yield { type: 'done', finish_reason: 'stop' };
		});
		const session = await newSession();
		const shown: string[] = [];
		const turn = runTurn(depsFor(provider, { checkpointMs: 100 }), {
			sessionId: session.id,
			text: 'Hi',
			onEvent: (event) => event.type === 'text' && shown.push(event.text)
		});
		// What a reload mid-stream would find in the database.
		await vi.waitFor(async () => {
			expect(shown.at(-1)).toBe('Hello world');
			expect((await listMessages(db, session.id))[1]).toMatchObject({ status: 'streaming', content: 'Hello world' });
		});
		resume();
		expect(await turn).toMatchObject({ status: 'complete', content: 'Hello world' });
	});

	it('lets a checkpoint in flight finish before handing over the answer', async () => {
		const session = await newSession();
		const [row] = await appendMessages(db, session.id, [
			{ id: 'a1', role: 'assistant', content: '', status: 'streaming', kind: 'message', created_at: 0 }
		]);
		const key: [string, number] = [row.session_id, row.seq];
		// Every write after the first takes 150 ms; count how many overlap.
		const update = db.messages.update.bind(db.messages);
		let writes = 0;
		let active = 0;
		let overlap = 0;
		const slow = async (...args: Parameters<typeof update>) => {
			active++;
			overlap = Math.max(overlap, active);
			try {
				if (writes++ > 0) await wait(150);
				return await update(...args);
			} finally {
				active--;
			}
		};
		vi.spyOn(db.messages, 'update').mockImplementation(slow as unknown as typeof update);
		const provider = scripted(async function* () {
			yield { type: 'text', text: 'a' };
			yield { type: 'text', text: 'b' };
			// The trailing checkpoint starts at ~30 ms and is still writing when the stream ends.
			await wait(80);
			yield { type: 'done', finish_reason: 'stop' };
		});
		const answer = await streamAnswer(depsFor(provider, { checkpointMs: 30 }), { model: 'm', messages: [] }, key, () => {});
		await updateMessage(db, key, { content: answer.content, status: answer.status });
		expect(writes).toBe(3);
		expect(overlap).toBe(1);
		expect(await db.messages.get(key)).toMatchObject({ content: 'ab', status: 'complete' });
	});
});

describe('what a provider reports besides the answer', () => {
	it('keeps the generation speed on the answer\'s row, to a tenth of a token per second, and passes a status on to the page', async () => {
		const provider = scripted(async function* () {
			yield { type: 'status', text: 'Loading the model…' };
			yield { type: 'text', text: 'Quick' };
			yield { type: 'speed', tokens_per_second: 41.26 };
			yield { type: 'done', finish_reason: 'stop' };
		});
		const session = await newSession();
		const statuses: unknown[] = [];
		await runTurn(depsFor(provider), { sessionId: session.id, text: 'Hi', onEvent: (event) => event.type === 'status' && statuses.push(event) });
		const answer = (await listMessages(db, session.id))[1];
		expect(answer).toMatchObject({ content: 'Quick', status: 'complete', tokens_per_second: 41.3 });
		// A status before the first words is shown, never stored.
		expect(statuses).toEqual([{ type: 'status', key: [session.id, answer.seq], text: 'Loading the model…' }]);
	});
});

describe('answers cut off at the output limit', () => {
	const mock = useMockProvider();
	const providerFor = (preset: ProviderPreset) => providerOnMock(mock, preset, 'mock-model');

	it.each(['custom', 'anthropic'] as const)('are stored incomplete, with the reason, and can be retried (%s wire format)', async (preset) => {
		mock.script([{ type: 'text', text: 'The first half of', finish: 'length' }]);
		const deps = depsFor(providerFor(preset), { checkpointMs: 0 });
		const session = await newSession();
		const first = await runTurn(deps, { sessionId: session.id, text: 'Tell me everything' });
		expect(first).toEqual({ status: 'incomplete', content: 'The first half of', error: OUTPUT_LIMIT_MESSAGE, sessionId: session.id });
		expect((await listMessages(db, session.id))[1]).toMatchObject({
			status: 'incomplete',
			content: 'The first half of',
			error: "The answer reached the model's output limit."
		});
		expect(await retryTurn(deps, { sessionId: session.id })).toMatchObject({ status: 'complete' });
	});

	it.each([
		['anthropic', 'refusal', 'The model declined to answer.'],
		['anthropic', 'context_window_exceeded', "The conversation filled the model's context window before the answer was finished."],
		['custom', 'content_filter', "The provider's content filter stopped the answer."]
	] as const)('are never stored as complete: %s stop reason %s shows its reason and offers Retry', async (preset, finish, reason) => {
		mock.script([{ type: 'text', text: 'Half an answer', finish }]);
		const deps = depsFor(providerFor(preset), { checkpointMs: 0 });
		const session = await newSession();
		expect(await runTurn(deps, { sessionId: session.id, text: 'Go on' })).toEqual({ status: 'incomplete', content: 'Half an answer', error: reason, sessionId: session.id });
		expect((await listMessages(db, session.id))[1]).toMatchObject({ status: 'incomplete', content: 'Half an answer', error: reason });
		expect(await retryTurn(deps, { sessionId: session.id })).toMatchObject({ status: 'complete' });
	});
});

describe('the cut-short table', () => {
	it('names every neutral reason that cuts an answer short, and none that ends it normally', () => {
		expect(Object.keys(CUT_SHORT_MESSAGES).sort()).toEqual(['content_filter', 'context_window_exceeded', 'error', 'length', 'paused', 'refusal']);
		expect(cutShortMessage('length')).toBe(OUTPUT_LIMIT_MESSAGE);
		for (const normal of ['stop', 'tool_calls', null, 'toString', 'a_reason_nobody_sends']) expect(cutShortMessage(normal)).toBeNull();
	});
});

describe('the final write', () => {
	const answering = () =>
		scripted(async function* () {
			yield { type: 'text', text: 'Hello world' };
			yield { type: 'tool_call', call: { id: 'c1', name: 'lookup', arguments: '{"q":"tides"}' } };
			yield { type: 'done', finish_reason: 'stop' };
		});

	it('counts the answer as it is written, so the estimate after it finds the count made', async () => {
		const session = await newSession();
		const asked: Array<{ texts: string[]; status: string | undefined }> = [];
		const counter = {
			async countTexts(texts: string[]) {
				// What the database holds when the count is asked: the final write is still under way.
				asked.push({ texts, status: (await listMessages(db, session.id))[1]?.status });
				return { encoding: 'o200k_base' as const, counts: texts.map((text) => text.length) };
			}
		};
		await runTurn(depsFor(answering(), { counter }), { sessionId: session.id, text: 'Hi' });
		expect(asked).toEqual([{ texts: ['Hello world\nlookup({"q":"tides"})'], status: 'streaming' }]);
		expect((await listMessages(db, session.id))[1]).toMatchObject({ status: 'complete', content: 'Hello world' });
	});

	it('stores the answer when the counter fails', async () => {
		const session = await newSession();
		const counter = { countTexts: () => Promise.reject(new Error('the worker stopped')) };
		expect(await runTurn(depsFor(answering(), { counter }), { sessionId: session.id, text: 'Hi' })).toMatchObject({ status: 'complete', content: 'Hello world' });
		expect((await listMessages(db, session.id))[1]).toMatchObject({ status: 'complete' });
	});
});
