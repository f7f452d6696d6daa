// The request estimate after one new ~2 KB message in a long session, against counting the
// whole session again. Three levels: the pure estimate in this thread, the worker call the app
// makes (only uncounted text crosses), and estimateSession as the app runs it (read the live
// rows from the database, count in the worker, store the new count).
import { estimateRequestTokens, type EstimateMessage } from '../../src/lib/context/count-tokens';
import type { ContextWorker } from '../../src/lib/context/context-client';
import { costText } from '../../src/lib/context/context-rows';
import { estimateMessages, estimateSession, type RequestExtras } from '../../src/lib/context/estimate-session';
import { listActiveMessages } from '../../src/lib/db/compaction-verbs';
import type { PalimpsestDb } from '../../src/lib/db/database';
import { appendMessages, type NewMessage } from '../../src/lib/db/message-verbs';
import type { MessageRow } from '../../src/lib/db/schema';
import { median, medianOf, timed } from './timing';

export interface CostPair {
	/** Every count cached but the new message's. */
	appendMs: number;
	/** No count cached: every message counted again. */
	recountMs: number;
	/** How many times cheaper the append is. */
	ratio: number;
	/** Both gave the same total. */
	agree: boolean;
}

function pair(append: { ms: number; value: number }, recount: { ms: number; value: number }): CostPair {
	return { appendMs: append.ms, recountMs: recount.ms, ratio: recount.ms / append.ms, agree: append.value === recount.value };
}

export interface EstimateOptions {
	/** The session's rows with cached counts (tokens and encoding). */
	rows: readonly NewMessage[];
	/** The new message, not counted yet. */
	added: string;
	model: string;
	extras: RequestExtras;
	appendRuns: number;
	recountRuns: number;
}

const asRows = (rows: readonly NewMessage[]) => rows as unknown as MessageRow[];

/** The estimate alone, in this thread, with the tokenizer called directly. */
export async function estimateInThread(options: EstimateOptions, count: (text: string) => number): Promise<CostPair> {
	const rows = [...options.rows, { content: options.added } as NewMessage];
	const cached = estimateMessages(asRows(rows), options.model);
	const uncached: EstimateMessage[] = rows.map((row) => ({ content: costText(row) }));
	const input = { ...options.extras, encoding: 'o200k_base' };
	const append = await medianOf(options.appendRuns, () => estimateRequestTokens({ ...input, messages: cached }, count).total);
	const recount = await medianOf(options.recountRuns, () => estimateRequestTokens({ ...input, messages: uncached }, count).total);
	return pair(append, recount);
}

/**
 * The worker call the app makes: cached rows cross as bare counts, the new one as text. Also
 * the time of a bare round trip to the worker (an empty call), which every estimate pays.
 */
export async function estimateThroughWorker(options: EstimateOptions, counter: Pick<ContextWorker, 'estimate' | 'countTexts'>): Promise<CostPair & { roundTripMs: number }> {
	const rows = [...options.rows, { content: options.added } as NewMessage];
	const cached = estimateMessages(asRows(rows), options.model);
	const uncached: EstimateMessage[] = rows.map((row) => ({ content: costText(row) }));
	await counter.estimate({ ...options.extras, messages: cached }, options.model);
	const append = await medianOf(options.appendRuns, async () => (await counter.estimate({ ...options.extras, messages: cached }, options.model)).total);
	const recount = await medianOf(options.recountRuns, async () => (await counter.estimate({ ...options.extras, messages: uncached }, options.model)).total);
	const roundTrip = await medianOf(options.appendRuns, () => counter.countTexts([], options.model));
	return { ...pair(append, recount), roundTripMs: roundTrip.ms };
}

/**
 * estimateSession on a stored session, timed alone: before each append run one new message is
 * stored, before each recount run every stored count is cleared (neither is timed).
 */
export async function estimateStoredSession(
	options: EstimateOptions & { db: PalimpsestDb; sessionId: string },
	counter: Pick<ContextWorker, 'estimate'>
): Promise<CostPair & { rows: number; readMs: number }> {
	const { db, sessionId, model, extras } = options;
	const estimate = () => timed(async () => (await estimateSession(db, counter, sessionId, model, extras))?.counted ?? NaN);
	await estimate();
	const appendTimes: number[] = [];
	let appended = { ms: 0, value: 0 };
	for (let run = 0; run < options.appendRuns; run++) {
		const message: NewMessage = { id: `added-${run}`, role: 'user', kind: 'message', status: 'complete', created_at: Date.now(), content: options.added };
		await appendMessages(db, sessionId, [message]);
		appended = await estimate();
		appendTimes.push(appended.ms);
	}
	const recountTimes: number[] = [];
	let recounted = { ms: 0, value: 0 };
	for (let run = 0; run < options.recountRuns; run++) {
		await db.messages
			.where('[session_id+seq]')
			.between([sessionId, -Infinity], [sessionId, Infinity])
			.modify((row) => {
				delete row.tokens;
				delete row.encoding;
			});
		recounted = await estimate();
		recountTimes.push(recounted.ms);
	}
	const read = await medianOf(options.appendRuns, () => listActiveMessages(db, sessionId));
	const result = pair({ ms: median(appendTimes), value: appended.value }, { ms: median(recountTimes), value: recounted.value });
	return { ...result, rows: read.value.length, readMs: read.ms };
}
