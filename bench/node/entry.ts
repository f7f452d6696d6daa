// What the Node side of the benchmarks runs, bundled by bench/build-bench.mjs: the app's
// ContextWorker over a worker thread, the measurements, and the rows that seed the built app.
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Worker } from 'node:worker_threads';
import { ContextWorker } from '../../src/lib/context/context-client';
import { PalimpsestDb } from '../../src/lib/db/database';

export { corpusTexts, englishMessage, kindOf, mixedMessage } from '../lib/corpus';
export { measureThroughput } from '../lib/counting';
export { estimateInThread, estimateThroughWorker, estimateStoredSession } from '../lib/estimate';
export { measureCompaction, measureFreed, storeSession } from '../lib/compaction';
export { compactedSession, conversationOf, conversationRows, seededSession, storedRows } from '../lib/seed-rows';
export { conversationTokens, fidelityCorpus, measureSummaries, offlineSummary, scoreExtraction } from '../lib/fidelity';
export { factSpan, timeCheck } from '../lib/fidelity-span';
export { modelSummary } from '../lib/fidelity-model';
export { DEFAULT_SYSTEM_PROMPT } from '../../src/lib/agent/build-request';
export { reservedOutputFor, contextWindowFor } from '../../src/lib/context/context-window';
export { PalimpsestDb };

/** gpt-tokenizer's own countTokens, called directly in this thread. */
export const rawCount = (text: string): number => countTokens(text);

/** Empties the merge cache of this thread's tokenizer, as in a worker that has counted nothing yet. */
export const clearRawCache = (): void => clearMergeCache();

/** The context worker on a real Node worker thread (`threadFile` is the built context-thread.mjs). */
export function threadWorker(threadFile: string): ContextWorker {
	return new ContextWorker({
		start: () => {
			const thread = new Worker(threadFile);
			return {
				endpoint: nodeEndpoint(thread),
				terminate: () => void thread.terminate(),
				onCrash: (listener) => void thread.on('error', (error) => listener(error.message))
			};
		}
	});
}
