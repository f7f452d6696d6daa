// The request estimate after one new 2 KB message in a long session, against counting the
// whole session again. Three levels: the pure estimate in this thread, the worker's estimate
// call with every cached count sent along, and estimateSession as the app runs it (the
// session's tally in memory; only what changed is read, counted in the worker, and stored).
import { estimateRequestTokens, type EstimateMessage } from '../../src/lib/context/count-tokens';
import type { ContextWorker } from '../../src/lib/context/context-client';
import { costText } from '../../src/lib/context/context-rows';
import { estimateMessages, estimateSession, type RequestExtras } from '../../src/lib/context/estimate-session';
import { sessionTallies } from '../../src/lib/context/session-tallies';
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
	// An empty estimate: countTexts answers texts it counted recently without a call.
	const roundTrip = await medianOf(options.appendRuns, () => counter.estimate({ messages: [] }, model));
	return { ...cost, roundTripMs: roundTrip.ms };
}

export interface StoredCost {
	/** The estimate ready (what a turn waits for before its request), and until its counts are stored. */
	ready: { answer: EstimateCost; typed: EstimateCost };
	stored: { answer: EstimateCost; typed: EstimateCost };
	rows: number;
	/** Reading the live rows with their content, and their keys alone. */
	readMs: number;
	keysMs: number;
	/** The time each append's commit notice took to reach the tally (part of the append), if measured. */
	noticeMs?: number;
	/** An answer's count and its write, started together: medians until each was done. */
	beside: { countMs: number; writeMs: number };
}

/** Times, per commit, how long the app's own listeners took to take in its notice. */
export interface NoticeProbe {
	reset(): void;
	median(): number;
}

/** The median times of one kind of append: until the estimate is ready, and until it is stored. */
interface AppendTimes {
	kind: string;
	readyMs: number;
	storedMs: number;
	total: number;
}

/**
 * estimateSession as the app runs it after an append: the session's tally is in memory, so the
 * estimate reads, counts and stores only what the append changed. Before each run (not timed)
 * one new message is stored with appendMessages, the verb the app appends with; for a typed
 * message the Message box has counted its draft first, as it does while the user types, and an
 * answer is counted while it is written, as the turn's final write does. Each
 * full recount starts with no stored count, no tally and a fresh worker (none of that timed).
 */
export async function estimateStoredSession(
	options: EstimateOptions & { db: PalimpsestDb; sessionId: string; notices?: NoticeProbe },
	counter: Counter,
	fresh: () => Counter
): Promise<StoredCost> {
	const { db, sessionId, model, extras } = options;
	const run = async (worker: Counter) => {
		const started = performance.now();
		const estimate = await estimateSession(db, worker, sessionId, model, extras);
		const readyMs = performance.now() - started;
		await estimate?.stored;
		return { readyMs, storedMs: performance.now() - started, total: estimate?.counted ?? NaN };
	};
	await run(counter);
	let added = 0;
	const appendRuns = async (kind: string, text: (run: number) => string, typed: boolean): Promise<AppendTimes> => {
		const ready: number[] = [];
		const stored: number[] = [];
		let total = NaN;
		for (let index = 0; index < options.appendRuns; index++) {
			// New text each run, and other text for typed messages than for answers.
			const content = text(index + (typed ? options.appendRuns : 0));
			if (typed) await counter.countTexts([content], model);
			// An answer is counted beside its final write (settleAnswer), a typed message before it.
			const started = performance.now();
			const counting = typed ? undefined : counter.countTexts([content], model).then(() => counts.push(performance.now() - started));
			await Promise.all([
				appendMessages(db, sessionId, [{ id: `added-${(added += 1)}`, role: typed ? 'user' : 'assistant', kind: 'message', status: 'complete', created_at: Date.now(), content }]).then(
					() => !typed && writes.push(performance.now() - started)
				),
				counting
			]);
			const times = await run(counter);
			ready.push(times.readyMs);
			stored.push(times.storedMs);
			total = times.total;
		}
		return { kind, readyMs: median(ready), storedMs: median(stored), total };
	};
	const kinds = Object.entries(options.added);
	/** Per answer: until its count was back, and until its write committed (both started together). */
	const counts: number[] = [];
	const writes: number[] = [];
	const answers: AppendTimes[] = [];
	const typed: AppendTimes[] = [];
	options.notices?.reset();
	for (const [kind, text] of kinds) answers.push(await appendRuns(kind, text, false));
	for (const [kind, text] of kinds) typed.push(await appendRuns(kind, text, true));
	const noticeMs = options.notices?.median();

	const workers = freshWorkers(fresh, model);
	const recounts: Array<{ readyMs: number; storedMs: number; total: number }> = [];
	for (let index = 0; index < options.recountRuns; index++) {
		await db.messages
			.where('[session_id+seq]')
			.between([sessionId, -Infinity], [sessionId, Infinity])
			.modify((row) => {
				delete row.tokens;
				delete row.encoding;
			});
		sessionTallies(db).clear();
		await workers.next();
		recounts.push(await run(workers.current));
	}
	workers.dispose();
	const recount = { readyMs: median(recounts.map((r) => r.readyMs)), storedMs: median(recounts.map((r) => r.storedMs)) };
	const agree = typed[typed.length - 1].total === recounts[recounts.length - 1].total;
	const cost = (times: AppendTimes[], key: 'readyMs' | 'storedMs'): EstimateCost => ({
		appends: times.map((t) => ({ kind: t.kind, ms: t[key], ratio: recount[key] / t[key] })),
		recountMs: recount[key],
		agree
	});
	const read = await medianOf(options.appendRuns, () => listActiveMessages(db, sessionId));
	const keys = await medianOf(options.appendRuns, () =>
		db.messages.where('[session_id+active+seq]').between([sessionId, 1, -Infinity], [sessionId, 1, Infinity]).primaryKeys()
	);
	return {
		ready: { answer: cost(answers, 'readyMs'), typed: cost(typed, 'readyMs') },
		stored: { answer: cost(answers, 'storedMs'), typed: cost(typed, 'storedMs') },
		rows: read.value.length,
		readMs: read.ms,
		keysMs: keys.ms,
		noticeMs,
		beside: { countMs: median(counts), writeMs: median(writes) }
	};
}
