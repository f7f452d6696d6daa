// The request estimate after one new 2 KB message in a long session, against counting the
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

export interface AppendCost {
	/** What the new message holds. */
	kind: string;
	/** Every count cached but the new message's. */
	ms: number;
	/** How many times cheaper than the full recount. */
	ratio: number;
}

export interface EstimateCost {
	appends: AppendCost[];
	/** No count cached: every message counted again. */
	recountMs: number;
	/** The last append and the recount gave the same total. */
	agree: boolean;
}

export interface EstimateOptions {
	/** The session's rows with cached counts (tokens and encoding). */
	rows: readonly NewMessage[];
	/** For each kind of new message, the message of each append run: new text each time, as in a conversation. */
	added: Record<string, (run: number) => string>;
	model: string;
	extras: RequestExtras;
	appendRuns: number;
	recountRuns: number;
}

type Counter = Pick<ContextWorker, 'estimate' | 'countTexts' | 'dispose'>;

const asRows = (rows: readonly NewMessage[]) => rows as unknown as MessageRow[];
const withAdded = (rows: readonly NewMessage[], content: string) => [...rows, { content } as NewMessage];

/** Runs `work` `runs` times with `prepare(run)` before each (not timed); median time, last value. */
async function timedRuns<T>(runs: number, prepare: (run: number) => Promise<unknown> | unknown, work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
	const times: number[] = [];
	let last!: T;
	for (let run = 0; run < runs; run++) {
		await prepare(run);
		const { ms, value } = await timed(work);
		times.push(ms);
		last = value;
	}
	return { ms: median(times), value: last };
}

/** Times the appends of every kind, then the recount; compares the last append's total with the recount's. */
async function measure(
	options: EstimateOptions,
	append: (text: (run: number) => string) => Promise<{ ms: number; value: number }>,
	recount: (last: string) => Promise<{ ms: number; value: number }>
): Promise<EstimateCost> {
	const kinds = Object.entries(options.added);
	const appended: Array<{ kind: string; ms: number; value: number }> = [];
	for (const [kind, text] of kinds) appended.push({ kind, ...(await append(text)) });
	const [, lastText] = kinds[kinds.length - 1];
	const full = await recount(lastText(options.appendRuns - 1));
	return {
		appends: appended.map(({ kind, ms }) => ({ kind, ms, ratio: full.ms / ms })),
		recountMs: full.ms,
		agree: appended[appended.length - 1].value === full.value
	};
}

/**
 * The estimate alone, in this thread, with the tokenizer called directly. Each recount starts
 * with the tokenizer's merge cache cleared, as in a fresh worker; appends keep it warm.
 */
export function estimateInThread(options: EstimateOptions, count: (text: string) => number, clearCache: () => void): Promise<EstimateCost> {
	const input = { ...options.extras, encoding: 'o200k_base' };
	return measure(
		options,
		(text) => {
			let cached: EstimateMessage[] = [];
			return timedRuns(
				options.appendRuns,
				(run) => (cached = estimateMessages(asRows(withAdded(options.rows, text(run))), options.model)),
				() => estimateRequestTokens({ ...input, messages: cached }, count).total
			);
		},
		(last) => {
			const uncached: EstimateMessage[] = withAdded(options.rows, last).map((row) => ({ content: costText(row) }));
			return timedRuns(options.recountRuns, clearCache, () => estimateRequestTokens({ ...input, messages: uncached }, count).total);
		}
	);
}

/** A fresh worker for each run (started and its table loaded in `prepare`, not timed). */
function freshWorkers(fresh: () => Counter, model: string) {
	let worker: Counter | null = null;
	return {
		get current(): Counter {
			if (!worker) throw new Error('No worker started yet.');
			return worker;
		},
		async next() {
			worker?.dispose();
			worker = fresh();
			await worker.countTexts([''], model);
		},
		dispose: () => worker?.dispose()
	};
}

/**
 * The worker call the app makes: cached rows cross as bare counts, the new one as text. Each
 * recount runs in a fresh worker. Also the time of a bare round trip to the worker (an empty
 * call), which every estimate pays.
 */
export async function estimateThroughWorker(options: EstimateOptions, counter: Counter, fresh: () => Counter): Promise<EstimateCost & { roundTripMs: number }> {
	const { extras, model } = options;
	await counter.estimate({ ...extras, messages: estimateMessages(asRows(options.rows), model) }, model);
	const workers = freshWorkers(fresh, model);
	const cost = await measure(
		options,
		(text) => {
			let cached: EstimateMessage[] = [];
			return timedRuns(
				options.appendRuns,
				(run) => (cached = estimateMessages(asRows(withAdded(options.rows, text(run))), model)),
				async () => (await counter.estimate({ ...extras, messages: cached }, model)).total
			);
		},
		(last) => {
			const uncached: EstimateMessage[] = withAdded(options.rows, last).map((row) => ({ content: costText(row) }));
			return timedRuns(options.recountRuns, () => workers.next(), async () => (await workers.current.estimate({ ...extras, messages: uncached }, model)).total);
		}
	);
	workers.dispose();
	const roundTrip = await medianOf(options.appendRuns, () => counter.countTexts([], model));
	return { ...cost, roundTripMs: roundTrip.ms };
}

/**
 * estimateSession on a stored session, timed alone: before each append run one new message is
 * stored; before each recount run every stored count is cleared and a fresh worker is started
 * (neither is timed). Also the time of reading the live rows alone.
 */
export async function estimateStoredSession(
	options: EstimateOptions & { db: PalimpsestDb; sessionId: string },
	counter: Counter,
	fresh: () => Counter
): Promise<EstimateCost & { rows: number; readMs: number }> {
	const { db, sessionId, model, extras } = options;
	const estimate = async (worker: Counter) => (await estimateSession(db, worker, sessionId, model, extras))?.counted ?? NaN;
	await estimate(counter);
	const workers = freshWorkers(fresh, model);
	let added = 0;
	const cost = await measure(
		options,
		(text) =>
			timedRuns(
				options.appendRuns,
				(run) => appendMessages(db, sessionId, [{ id: `added-${(added += 1)}`, role: 'user', kind: 'message', status: 'complete', created_at: Date.now(), content: text(run) }]),
				() => estimate(counter)
			),
		() =>
			timedRuns(
				options.recountRuns,
				async () => {
					await db.messages
						.where('[session_id+seq]')
						.between([sessionId, -Infinity], [sessionId, Infinity])
						.modify((row) => {
							delete row.tokens;
							delete row.encoding;
						});
					await workers.next();
				},
				() => estimate(workers.current)
			)
	);
	workers.dispose();
	const read = await medianOf(options.appendRuns, () => listActiveMessages(db, sessionId));
	return { ...cost, rows: read.value.length, readMs: read.ms };
}
