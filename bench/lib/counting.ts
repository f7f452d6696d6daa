// Counting throughput: the same texts counted through the context worker (the app's path:
// ContextWorker → comlink → contextApi.countTexts) and with gpt-tokenizer's countTokens called
// directly in the same thread, batch by batch in turn, so both see the same machine load.
import type { ContextWorker } from '../../src/lib/context/context-client';
import { median, timed } from './timing';

export interface ThroughputOptions {
	counter: Pick<ContextWorker, 'countTexts'>;
	/** gpt-tokenizer's countTokens for the same encoding, called directly. */
	raw: (text: string) => number;
	texts: readonly string[];
	model: string;
	rounds: number;
	/** Texts per worker call (the app sends a session's uncounted messages in one call). */
	batch: number;
}

export interface ThroughputResult {
	texts: number;
	chars: number;
	tokens: number;
	/** The first worker call, which starts the worker and loads the encoding table. */
	firstCallMs: number;
	rawMs: number;
	workerMs: number;
	rawTokensPerSecond: number;
	workerTokensPerSecond: number;
	/** Worker throughput over raw throughput. */
	ratio: number;
	/** Both paths gave the same total. */
	agree: boolean;
}

export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputResult> {
	const { counter, raw, texts, model, rounds, batch } = options;
	const first = await timed(() => counter.countTexts([texts[0]], model));
	// One untimed pass each, so both paths run compiled code and warm caches when timing starts.
	texts.forEach((text) => raw(text));
	await counter.countTexts([...texts], model);
	const rawTimes: number[] = [];
	const workerTimes: number[] = [];
	let rawTotal = 0;
	let workerTotal = 0;
	for (let round = 0; round < rounds; round++) {
		// Batch by batch, raw then worker: a machine busy with other work slows both alike.
		let rawMs = 0;
		let workerMs = 0;
		rawTotal = 0;
		workerTotal = 0;
		for (let start = 0; start < texts.length; start += batch) {
			const part = texts.slice(start, start + batch);
			const direct = await timed(() => part.reduce((sum, text) => sum + raw(text), 0));
			rawMs += direct.ms;
			rawTotal += direct.value;
			const viaWorker = await timed(() => counter.countTexts(part, model));
			workerMs += viaWorker.ms;
			workerTotal += viaWorker.value.counts.reduce((sum, count) => sum + count, 0);
		}
		rawTimes.push(rawMs);
		workerTimes.push(workerMs);
	}
	const rawMs = median(rawTimes);
	const workerMs = median(workerTimes);
	const perSecond = (ms: number) => (rawTotal / ms) * 1000;
	return {
		texts: texts.length,
		chars: texts.reduce((sum, text) => sum + text.length, 0),
		tokens: rawTotal,
		firstCallMs: first.ms,
		rawMs,
		workerMs,
		rawTokensPerSecond: perSecond(rawMs),
		workerTokensPerSecond: perSecond(workerMs),
		ratio: rawMs / workerMs,
		agree: rawTotal === workerTotal
	};
}
