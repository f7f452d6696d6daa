import { describe, expect, it, vi } from 'vitest';
import { collect } from './fixtures/read-fixture';
import { chunkAnswer, createOfflineProvider } from './offline';
import { MAX_LONG_WORDS, requestedWordCount } from './offline-answer';
import type { ChatMessage, StreamEvent } from './types';

const offline = createOfflineProvider({ delayMs: 0 });
const ask = async (...contents: string[]) => {
	const messages: ChatMessage[] = contents.map((content, i) => ({
		role: i % 2 === 0 ? 'user' : 'assistant',
		content
	}));
	return collect(offline.stream({ model: 'offline-mini', messages }));
};
const textOf = (events: StreamEvent[]) =>
	events.map((event) => (event.type === 'text' ? event.text : '')).join('');
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('offline provider', () => {
	it('describes itself as the built-in offline model', async () => {
		expect(offline).toMatchObject({ id: 'offline', label: 'Offline model (built-in)', offline: true });
		expect(await offline.listModels?.()).toEqual(['offline-mini']);
	});

	it('answers the same conversation identically, and different ones differently', async () => {
		const first = textOf(await ask('How do I learn Rust?'));
		expect(textOf(await ask('How do I learn Rust?'))).toBe(first);
		expect(textOf(await ask('How do I bake bread?'))).not.toBe(first);
		expect(first).toContain('> How do I learn Rust?');
		expect(first).toMatch(/^- /m);
	});

	it('includes a code block when asked for code', async () => {
		expect(textOf(await ask('Show me a code example'))).toContain('```');
	});

	it('streams word-sized chunks, then done, and reports no usage it cannot count exactly', async () => {
		const events = await ask('Tell me something');
		const texts = events.filter((event) => event.type === 'text');
		expect(texts.length).toBeGreaterThan(10);
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
		expect(events.some((event) => event.type === 'usage')).toBe(false);
	});

	it('reports exact usage from the counter it is given', async () => {
		const counted: string[][] = [];
		const counting = createOfflineProvider({ delayMs: 0, countTokens: async (texts) => (counted.push(texts), texts.map((t) => t.length)) });
		const events = await collect(counting.stream({ model: 'offline-mini', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Tell me' }] }));
		const answer = textOf(events);
		expect(counted).toEqual([['sys', 'Tell me', answer]]);
		expect(events.slice(-2)).toEqual([
			{ type: 'usage', usage: { input_tokens: 3 + 7, output_tokens: answer.length } },
			{ type: 'done', finish_reason: 'stop' }
		]);
	});

	it('echoes the rest of an echo: message verbatim', async () => {
		const hostile = '# Title\n\n<img src=x onerror="alert(1)">\n\n```js\nlet a = 1;\n```\n  trailing  ';
		expect(textOf(await ask(`echo: ${hostile}`))).toBe(hostile);
		expect(textOf(await ask('echo:no space'))).toBe('no space');
		expect(textOf(await ask('first', 'reply', 'echo:   two spaces kept'))).toBe('  two spaces kept');
	});

	it('writes long answers of about the requested length', async () => {
		for (const [prompt, words] of [
			['long 3000', 3000],
			['Long 2000 about rivers', 2000],
			['Please write 500 words about tides', 500],
			['long', 1000]
		] as const) {
			const count = wordCount(textOf(await ask(prompt)));
			expect(count, prompt).toBeGreaterThanOrEqual(words);
			expect(count, prompt).toBeLessThan(words + 20);
		}
		expect(requestedWordCount('long 999999')).toBe(MAX_LONG_WORDS);
		for (const ordinary of ['how long is a piece of string?', 'long ago, in a galaxy', 'longer please', 'not long 300']) {
			expect(requestedWordCount(ordinary), ordinary).toBeNull();
		}
	});

	it('streams a 20,000-word answer in a bounded number of chunks', async () => {
		const events = await ask(`long ${MAX_LONG_WORDS}`);
		const chunks = events.filter((event) => event.type === 'text');
		expect(chunks.length).toBeLessThanOrEqual(400);
		expect(wordCount(textOf(events))).toBeGreaterThanOrEqual(MAX_LONG_WORDS);
	});

	it('chunks so that the pieces join back to the exact text', () => {
		const text = '  Leading and\n\ntrailing\tspace  ';
		expect(chunkAnswer(text).join('')).toBe(text);
	});

	it('waits between chunks at a typing pace by default', async () => {
		const sleep = vi.fn(async () => {});
		const paced = createOfflineProvider({ sleep });
		await collect(paced.stream({ model: 'offline-mini', messages: [{ role: 'user', content: 'echo:a b c' }] }));
		expect(sleep).toHaveBeenCalledTimes(3);
		for (const [ms] of sleep.mock.calls as unknown as [number][]) {
			expect(ms).toBeGreaterThanOrEqual(15);
			expect(ms).toBeLessThanOrEqual(25);
		}
	});

	it('ends with an AbortError when aborted mid-answer', async () => {
		const controller = new AbortController();
		const seen: string[] = [];
		const run = async () => {
			const request = { model: 'offline-mini', messages: [{ role: 'user' as const, content: 'long 200' }], signal: controller.signal };
			for await (const event of createOfflineProvider({ delayMs: 1 }).stream(request)) {
				if (event.type === 'text') seen.push(event.text);
				if (seen.length === 3) controller.abort();
			}
		};
		await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
		expect(seen).toHaveLength(3);
	});
});

describe('offline tool use and context management', () => {
	const tools = [{ name: 'search', description: 'Search', parameters: { type: 'object' } }];

	it('calls an offered tool for tool:NAME {json}, and reports its result after the round', async () => {
		const messages: ChatMessage[] = [{ role: 'user', content: 'tool:search {"q":"tides"}' }];
		const events = await collect(offline.stream({ model: 'offline-mini', messages, tools }));
		const call = events.find((e) => e.type === 'tool_call');
		expect(call?.type === 'tool_call' && call.call).toMatchObject({ name: 'search', arguments: '{"q":"tides"}' });
		expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'tool_calls' });
		const id = call?.type === 'tool_call' ? call.call.id : '';
		const after = await collect(
			offline.stream({
				model: 'offline-mini',
				tools,
				messages: [...messages, { role: 'assistant', content: '', tool_calls: [{ id, name: 'search', arguments: '{}' }] }, { role: 'tool', tool_call_id: id, content: 'High tide at 6pm.' }]
			})
		);
		expect(textOf(after)).toContain('**search** returned 17 characters: High tide at 6pm.');
	});

	it('does not call a tool the request does not offer', async () => {
		const events = await collect(offline.stream({ model: 'offline-mini', messages: [{ role: 'user', content: 'tool:rm {}' }] }));
		expect(events.some((e) => e.type === 'tool_call')).toBe(false);
	});

	it('clears all but its newest 3 long tool results once more than 6 arrive, and says so', async () => {
		const results = (n: number): ChatMessage[] => Array.from({ length: n }, (_, i) => ({ role: 'tool', tool_call_id: `c${i}`, content: 'x'.repeat(500) }));
		const stream = (n: number) => collect(offline.stream({ model: 'offline-mini', messages: [{ role: 'user', content: 'go' }, ...results(n), { role: 'user', content: 'next' }] }));
		expect((await stream(6)).some((e) => e.type === 'context_compacted')).toBe(false);
		expect((await stream(8))[0]).toEqual({ type: 'context_compacted', cleared_tool_results: 5 });
	});

	it('compacts a history natively into a recap and the last exchange, never keeping an answer without its question', async () => {
		const history: ChatMessage[] = [
			{ role: 'system', content: 'sys' },
			{ role: 'user', content: 'Plan the trip to Lisbon' },
			{ role: 'assistant', content: 'Day one: Alfama.' },
			{ role: 'user', content: 'And day two?' },
			{ role: 'assistant', content: 'Belém.' },
			{ role: 'user', content: 'Book it' }
		];
		const compacted = await offline.compact!({ model: 'offline-mini', messages: history });
		expect(compacted).toHaveLength(4);
		expect(compacted[0]).toMatchObject({ role: 'user', summary: true });
		expect(compacted[0].content).toContain('- The user asked: Plan the trip to Lisbon');
		expect(compacted[0].content).toContain('- The assistant answered: Day one: Alfama.');
		// The answer kept before the last message comes with the question it answers.
		expect(compacted.slice(1)).toEqual(history.slice(3));
		// Compacting again keeps the recap's lines and adds nothing new: there is nothing to drop.
		expect(await offline.compact!({ model: 'offline-mini', messages: [history[0], ...compacted] })).toEqual(compacted);
	});
});
