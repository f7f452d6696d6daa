import { describe, expect, it } from 'vitest';
import { ProviderError, type ProviderConfig, type StreamEvent } from '../types';
import { PLAIN_STOP } from './chat-template';
import { createLocalModelProvider, type LocalEngine } from './local-model-provider';

const CONFIG: ProviderConfig = {
	id: 'local-1',
	preset: 'wllama',
	label: 'In-browser model (llama.cpp)',
	base_url: '',
	api_key: '',
	model: 'tiny.gguf',
	local: { files: ['tiny.gguf'], bytes: 1000, context_window: 4096, trained_context: 4096, template: 'model' }
};

const chunk = (content: string | null, extra: Record<string, unknown> = {}) => ({
	object: 'chat.completion.chunk',
	choices: content === null ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
	...extra
});

/** An engine that answers with `chunks`, then hangs forever if `hang` (a model still generating). */
function engine(chunks: unknown[], options: { hang?: boolean; seen?: Record<string, unknown>[] } = {}): LocalEngine {
	return {
		async chat(body) {
			options.seen?.push(body);
			return (async function* () {
				yield* chunks;
				if (options.hang) await new Promise(() => {});
			})();
		}
	};
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
	const events: StreamEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe('the in-browser model provider', () => {
	it('streams text, then usage, the model-measured speed and the finish reason', async () => {
		const seen: Record<string, unknown>[] = [];
		const answer = [
			chunk('Hello'),
			chunk(' there'),
			{ object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
			chunk(null, { usage: { prompt_tokens: 12, completion_tokens: 2 }, timings: { predicted_per_second: 41.5 } })
		];
		const provider = createLocalModelProvider(CONFIG, async () => engine(answer, { seen }));
		const events = await collect(provider.stream({ model: 'tiny.gguf', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 50 }));
		expect(events).toEqual([
			{ type: 'text', text: 'Hello' },
			{ type: 'text', text: ' there' },
			{ type: 'usage', usage: { input_tokens: 12, output_tokens: 2 } },
			{ type: 'speed', tokens_per_second: 41.5 },
			{ type: 'done', finish_reason: 'stop' }
		]);
		expect(seen[0]).toMatchObject({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 50, stream: true });
		expect(seen[0].stop).toBeUndefined();
		// Without a limit of its own, an answer may take the output budget the app keeps free: a tenth of the context.
		await collect(provider.stream({ model: 'tiny.gguf', messages: [{ role: 'user', content: 'Hi' }] }));
		expect(seen[1].max_tokens).toBe(409);
		expect(provider.offline).toBe(false);
	});

	it('stops a model without a chat template where its plain transcript starts the next turn', async () => {
		const seen: Record<string, unknown>[] = [];
		const config = { ...CONFIG, local: { ...CONFIG.local!, template: 'fallback' as const } };
		const provider = createLocalModelProvider(config, async () => engine([chunk('x', { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })], { seen }));
		await collect(provider.stream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }));
		expect(seen[0].stop).toEqual(PLAIN_STOP);
	});

	it('says the model is loading before its first words, and not when it is loaded already', async () => {
		let ready: (loaded: LocalEngine) => void = () => {};
		const provider = createLocalModelProvider(CONFIG, () => new Promise((resolve) => (ready = resolve)));
		const events = provider.stream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })[Symbol.asyncIterator]();
		expect((await events.next()).value).toEqual({ type: 'status', text: 'Loading the model…' });
		ready(engine([chunk('Hi')]));
		expect((await events.next()).value).toEqual({ type: 'text', text: 'Hi' });
		const loaded = engine([chunk('Hi')]);
		const again = await collect(createLocalModelProvider(CONFIG, () => Promise.resolve(loaded)).stream({ model: 'm', messages: [] }));
		expect(again.map((event) => event.type)).toEqual(['text', 'done']);
	});

	it('ends with an AbortError the moment Stop is pressed, while the model is still generating or loading', async () => {
		const controller = new AbortController();
		const provider = createLocalModelProvider(CONFIG, async () => engine([chunk('one'), chunk(' two')], { hang: true }));
		const texts: string[] = [];
		const run = (async () => {
			for await (const event of provider.stream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], signal: controller.signal })) {
				if (event.type === 'text') texts.push(event.text);
				if (texts.length === 2) controller.abort();
			}
		})();
		await expect(run).rejects.toMatchObject({ name: 'AbortError' });
		expect(texts).toEqual(['one', ' two']);

		const loading = new AbortController();
		const never = createLocalModelProvider(CONFIG, () => new Promise(() => {}));
		const waiting = collect(never.stream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], signal: loading.signal }));
		loading.abort();
		await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('reports a full context as an overflow and other engine failures with their reason', async () => {
		const full = Object.assign(new Error('context is full'), { type: 'kv_cache_full' });
		const overflowing = createLocalModelProvider(CONFIG, async () => ({ chat: async () => Promise.reject(full) }));
		await expect(collect(overflowing.stream({ model: 'm', messages: [] }))).rejects.toMatchObject({ kind: 'overflow' });
		const broken = createLocalModelProvider(CONFIG, async () => Promise.reject(new Error('Cannot allocate WebAssembly.Memory')));
		const error = await collect(broken.stream({ model: 'm', messages: [] })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ProviderError);
		expect((error as ProviderError).message).toMatch(/in-browser model failed: Cannot allocate WebAssembly.Memory/);
		expect((error as ProviderError).retryable).toBe(false);
	});
});
