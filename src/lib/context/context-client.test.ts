import { expose } from 'comlink';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextWorker, type ContextWorkerStatus, type WorkerHandle } from './context-client';
import { contextApi, type ContextApi } from './context-api';

// The worker file only calls expose(contextApi); this runs the same API over a real
// MessageChannel, so arguments and results go through structured cloning as in the browser.
interface FakeWorker {
	handle: WorkerHandle;
	crash(reason: string): void;
	terminated: boolean;
}

function fakeWorkers(api: ContextApi = contextApi) {
	const started: FakeWorker[] = [];
	const start = (): WorkerHandle => {
		const { port1, port2 } = new MessageChannel();
		expose(api, port1);
		const listeners: Array<(reason: string) => void> = [];
		const fake: FakeWorker = {
			terminated: false,
			crash: (reason) => listeners.forEach((listener) => listener(reason)),
			handle: {
				endpoint: port2,
				terminate: () => {
					fake.terminated = true;
					port1.close();
					port2.close();
				},
				onCrash: (listener) => void listeners.push(listener)
			}
		};
		started.push(fake);
		return fake.handle;
	};
	return { started, start };
}

let client: ContextWorker;
afterEach(() => client?.dispose());

describe('the context worker client', () => {
	const texts = ['Hello, world!', '{"a": [1, 2, 3]}', '日本語のテキスト'];

	it.each([
		['gpt-4o', 'o200k_base', o200k],
		['gpt-4', 'cl100k_base', cl100k]
	] as const)('counts exactly for %s with %s', async (model, encoding, table) => {
		const workers = fakeWorkers();
		client = new ContextWorker({ start: workers.start });
		const result = await client.estimate({ messages: texts.map((content) => ({ content })) }, model);
		expect(result.encoding).toBe(encoding);
		expect(result.messageCounts).toEqual(texts.map((t) => table.encode(t).length));
		expect((await client.countTexts(texts, model)).counts).toEqual(texts.map((t) => table.encode(t).length));
		expect(client.status).toBe('ready');
	});

	it('answers a text counted recently without asking the worker, per encoding', async () => {
		const asked: string[][] = [];
		const workers = fakeWorkers({ ...contextApi, countTexts: (texts, model) => (asked.push(texts), contextApi.countTexts(texts, model)) });
		client = new ContextWorker({ start: workers.start });
		const draft = 'A message typed in the Message box, counted while it was typed.';
		await client.countTexts([draft], 'gpt-4o');
		const sent = await client.countTexts(['System prompt.', draft, draft], 'gpt-4o');
		expect(sent.counts).toEqual([o200k.encode('System prompt.').length, o200k.encode(draft).length, o200k.encode(draft).length]);
		expect(await client.countTexts([draft], 'gpt-4')).toEqual({ encoding: 'cl100k_base', counts: [cl100k.encode(draft).length] });
		expect(asked).toEqual([[draft], ['System prompt.'], [draft]]);
	});

	it('starts the worker only when first asked', async () => {
		const workers = fakeWorkers();
		client = new ContextWorker({ start: workers.start });
		expect(workers.started).toHaveLength(0);
		await client.countTexts(['x'], 'gpt-4o');
		await client.countTexts(['y'], 'gpt-4o');
		expect(workers.started).toHaveLength(1);
	});

	it('notices a crashed worker: the pending call fails, the status says unavailable, and the next call starts a fresh one', async () => {
		const statuses: ContextWorkerStatus[] = [];
		let release = () => {};
		const stuck: ContextApi = { ...contextApi, countTexts: () => new Promise((resolve) => (release = () => resolve({ encoding: 'o200k_base', counts: [] }))) };
		const workers = fakeWorkers(stuck);
		client = new ContextWorker({ start: workers.start, onStatus: (s) => statuses.push(s) });
		const pending = client.countTexts(['x'], 'gpt-4o');
		await new Promise((resolve) => setTimeout(resolve, 20));
		workers.started[0].crash('out of memory');
		await expect(pending).rejects.toThrow(/token counter stopped \(out of memory\)/);
		expect(workers.started[0].terminated).toBe(true);
		expect(client.status).toBe('unavailable');
		release();
		const next = await client.estimate({ messages: [{ content: 'again' }] }, 'gpt-4o');
		expect(next.total).toBe(o200k.encode('again').length + 4);
		expect(workers.started).toHaveLength(2);
		expect(statuses).toEqual(['unavailable', 'ready']);
	});

	it('replaces a worker that never answers once the call times out', async () => {
		const hung: ContextApi = { ...contextApi, countTexts: () => new Promise(() => {}) };
		const workers = fakeWorkers(hung);
		client = new ContextWorker({ start: workers.start, timeoutMs: 50 });
		await expect(client.countTexts(['x'], 'gpt-4o')).rejects.toThrow(/did not answer in time/);
		expect(workers.started[0].terminated).toBe(true);
		expect(client.status).toBe('unavailable');
		await expect(client.estimate({ messages: [{ content: 'hi' }] }, 'gpt-4o')).resolves.toMatchObject({ encoding: 'o200k_base' });
		expect(workers.started).toHaveLength(2);
	});

	it('rejects across the channel instead of hanging when input is invalid', async () => {
		client = new ContextWorker({ start: fakeWorkers().start });
		await expect(client.estimate({ messages: [{ content: null as unknown as string }] }, 'gpt-4o')).rejects.toThrow();
	});
});
