// Counting throughput: the same texts counted through the context worker (the app's path:
// ContextWorker → comlink → contextApi.countTexts) and with gpt-tokenizer's countTokens called
// directly in the same thread, batch by batch in turn, so both see the same machine load.
import type { ContextWorker } from '../../src/lib/context/context-client';
import { median, timed } from './timing';

export interface ThroughputOptions {
	counter: Pick<ContextWorker, 'countTexts'>;
	/** gpt-tokenizer's countTokens for the same encoding, called directly. */
	raw: (text: string) => number;
	/** The texts of each round (new text each round, as in use; round -1 warms both paths up). */
	texts: (round: number) => readonly string[];
	model: string;
	rounds: number;
	/** Texts per worker call (the app sends a session's uncounted messages in one call). */
	batch: number;
	/** What kind of text the text at an index is, for the raw throughput of each kind. */
	kindOf: (index: number) => string;
}

export interface ThroughputResult {
	rounds: number;
	/** Characters and tokens of one round (on average). */
	chars: number;
	tokens: number;
	/** The first worker call, which starts the worker and loads the encoding table. */
	firstCallMs: number;
	/** The median round's time, scaled to the average round's tokens. */
	rawMs: number;
	workerMs: number;
	rawTokensPerSecond: number;
	workerTokensPerSecond: number;
	/** Worker throughput over raw throughput. */
	ratio: number;
	/** Both paths gave the same totals in every round. */
	agree: boolean;
	/** Raw tokens per second of each kind of text, over all rounds. */
	rawByKind: Record<string, number>;
}

export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputResult> {
	const { counter, raw, texts, model, rounds, batch, kindOf } = options;
	const byKind = new Map<string, { ms: number; tokens: number }>();
	/** gpt-tokenizer called directly on each text of a batch, timed per kind of text. */
	const countRaw = (part: readonly string[], first: number) =>
		part.reduce((sum, one, i) => {
			const started = performance.now();
			const tokens = raw(one);
			const kind = byKind.get(kindOf(first + i)) ?? { ms: 0, tokens: 0 };
			byKind.set(kindOf(first + i), { ms: kind.ms + performance.now() - started, tokens: kind.tokens + tokens });
			return sum + tokens;
		}, 0);
	const warm = texts(-1);
	const first = await timed(() => counter.countTexts([warm[0]], model));
	// One untimed pass each, so both paths run compiled code when timing starts.
	warm.forEach((text) => raw(text));
	await counter.countTexts([...warm], model);
	const rawTimes: number[] = [];
	const workerTimes: number[] = [];
	let chars = 0;
	let tokens = 0;
	let agree = true;
	for (let round = 0; round < rounds; round++) {
		// Batch by batch, raw then worker: a machine busy with other work slows both alike.
		const text = texts(round);
		let rawMs = 0;
		let workerMs = 0;
		let rawTotal = 0;
		let workerTotal = 0;
		for (let start = 0; start < text.length; start += batch) {
			const part = text.slice(start, start + batch);
			const direct = await timed(() => countRaw(part, start));
			rawMs += direct.ms;
			rawTotal += direct.value;
			const viaWorker = await timed(() => counter.countTexts(part, model));
			workerMs += viaWorker.ms;
			workerTotal += viaWorker.value.counts.reduce((sum, count) => sum + count, 0);
		}
		// Rounds differ in size a little: times are scaled to tokens per second per round.
		rawTimes.push(rawMs / rawTotal);
		workerTimes.push(workerMs / rawTotal);
		chars += text.reduce((sum, one) => sum + one.length, 0);
		tokens += rawTotal;
		agree &&= rawTotal === workerTotal;
	}
	const rawMsPerToken = median(rawTimes);
	const workerMsPerToken = median(workerTimes);
	return {
		rounds,
		chars: chars / rounds,
		tokens: tokens / rounds,
		firstCallMs: first.ms,
		rawMs: rawMsPerToken * (tokens / rounds),
		workerMs: workerMsPerToken * (tokens / rounds),
		rawTokensPerSecond: 1000 / rawMsPerToken,
		workerTokensPerSecond: 1000 / workerMsPerToken,
		ratio: rawMsPerToken / workerMsPerToken,
		agree,
		rawByKind: Object.fromEntries([...byKind].map(([kind, { ms, tokens }]) => [kind, (tokens / ms) * 1000]))
	};
}
