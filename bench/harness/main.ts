// The Chromium side of the benchmarks: the app's own modules bundled into a bare page, so the
// context worker is a real Worker and the database is Chromium's IndexedDB. bench/*.mjs call
// window.bench through Playwright; each function returns plain figures.
import Dexie from 'dexie';
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { DEFAULT_SYSTEM_PROMPT } from '../../src/lib/agent/build-request';
import { ContextWorker } from '../../src/lib/context/context-client';
import { contextWindowFor, reservedOutputFor } from '../../src/lib/context/context-window';
import { PalimpsestDb } from '../../src/lib/db/database';
import { corpusTexts, englishMessage, kindOf, mixedMessage } from '../lib/corpus';
import { measureThroughput } from '../lib/counting';
import { measureCompaction, storeSession } from '../lib/compaction';
import { estimateInThread, estimateStoredSession, estimateThroughWorker, type NoticeProbe } from '../lib/estimate';
import { sessionTallies } from '../../src/lib/context/session-tallies';
import { listActiveMessages } from '../../src/lib/db/compaction-verbs';
import { listMessages } from '../../src/lib/db/message-verbs';
import { compactedSession, conversationOf, conversationRows, seededSession, storedRows } from '../lib/seed-rows';
import { medianOf } from '../lib/timing';
import { measureDispatch, type DispatchOptions } from '../lib/plugin-dispatch';
import { measureRoundTrips } from '../lib/sandbox-round-trips';
import { measureFloodedDispatch } from '../lib/plugin-flood';
import { measureLocalModel } from '../lib/local-model';
import { measureToolRoundTrips, type ToolRoundTripOptions } from '../lib/tool-round-trips';
import { firstSyncInWorker, measureSyncRounds, type SyncRoundOptions } from '../lib/sync-rounds';
import type { FirstSyncOptions } from '../lib/first-sync';

const MODEL = 'offline-mini';
const raw = (text: string) => countTokens(text);
/** The new 2 KB message of each append run: English prose, or mixed text (English, JSON, CJK, code). */
const NEW_MESSAGES = { 'English prose': (run: number) => englishMessage(100 + run), 'mixed text': (run: number) => mixedMessage(100 + run) };
const extras = () => ({ systemPrompt: DEFAULT_SYSTEM_PROMPT, reservedOutput: reservedOutputFor(contextWindowFor(MODEL)) });

/**
 * Dexie calls its 'storagemutated' subscribers newest first: one subscribed after the app's
 * (by the probe) and one before it (here, at load) time what the app's listener does with each
 * commit.
 */
let noticeStarted: number | null = null;
let noticeTimes: number[] = [];
Dexie.on('storagemutated', () => {
	if (noticeStarted !== null) noticeTimes.push(performance.now() - noticeStarted);
	noticeStarted = null;
});
function noticeProbe(): NoticeProbe {
	Dexie.on('storagemutated', () => void (noticeStarted = performance.now()));
	return {
		reset: () => void (noticeTimes = []),
		median: () => [...noticeTimes].sort((a, b) => a - b)[Math.floor(noticeTimes.length / 2)]
	};
}

async function withDb<T>(work: (db: PalimpsestDb) => Promise<T>): Promise<T> {
	const db = new PalimpsestDb(`bench-${crypto.randomUUID()}`);
	try {
		return await work(db);
	} finally {
		db.close();
		await db.delete();
	}
}

async function withWorker<T>(work: (worker: ContextWorker) => Promise<T>): Promise<T> {
	const worker = new ContextWorker({ timeoutMs: 300_000 });
	try {
		return await work(worker);
	} finally {
		worker.dispose();
	}
}

const bench = {
	throughput: (texts: number, rounds: number, batch: number) =>
		withWorker((counter) => measureThroughput({ counter, raw, texts: (round) => corpusTexts(texts, 2048, round + 2), kindOf, model: MODEL, rounds, batch })),

	estimate: (tokens: number, appendRuns: number, recountRuns: number) =>
		withWorker(async (counter) => {
			const options = { rows: conversationOf(tokens, raw), added: NEW_MESSAGES, model: MODEL, extras: extras(), appendRuns, recountRuns };
			const fresh = () => new ContextWorker({ timeoutMs: 300_000 });
			const thread = await estimateInThread(options, raw, clearMergeCache);
			const worker = await estimateThroughWorker(options, counter, fresh);
			const stored = await withDb(async (db) => {
				const sessionId = await storeSession(db, options.rows);
				// The app's listener subscribes with the first tally; the probe's second listener after it.
				sessionTallies(db);
				return estimateStoredSession({ ...options, db, sessionId, notices: noticeProbe() }, counter, fresh);
			});
			const added = Object.fromEntries(Object.entries(NEW_MESSAGES).map(([kind, text]) => [kind, { chars: text(0).length, tokens: raw(text(0)) }]));
			return { thread, worker, stored, rows: options.rows.length + 1, added };
		}),

	// The worker is started and its table loaded first, as in an app that has shown the session.
	compaction: (tokens: number) =>
		withWorker(async (counter) => {
			await counter.countTexts(['start'], MODEL);
			return withDb(async (db) => measureCompaction(db, counter, await storeSession(db, conversationOf(tokens, raw))));
		}),

	/** Reading a session's live rows through [session_id+active+seq], and all its rows, with and without compacted ones. */
	liveRead: (compacted: number, live: number, runs: number) =>
		withDb(async (db) => {
			const big = compactedSession('big', 'big', conversationRows(compacted), conversationRows(live, raw, 11));
			const smallRows = storedRows('small', conversationRows(live, raw, 11));
			await db.sessions.bulkPut([big.session, seededSession('small', 'small', smallRows)]);
			await db.messages.bulkPut([...big.rows, ...smallRows]);
			const time = async (id: string, read: typeof listMessages) => {
				const { ms, value } = await medianOf(runs, () => read(db, id));
				return { ms, rows: value.length };
			};
			return {
				compactedLive: await time('big', listActiveMessages),
				compactedAll: await time('big', listMessages),
				plainLive: await time('small', listActiveMessages)
			};
		}),

	/** pre_llm_call and post_compaction through `sources`, isolated and in the page, in turn. */
	pluginDispatch: (sources: string[], options: DispatchOptions) => measureDispatch(sources, options),

	/** pre_llm_call through `harmless`, quiet and while another isolated plugin floods the app with near-megabyte writes. */
	pluginFlood: (harmless: string, runs: number, gapMs: number) => measureFloodedDispatch(harmless, runs, gapMs),

	/** Bare comlink calls to `plugins` copies of one plugin's runtime, in three places. */
	pluginRoundTrips: (source: string, plugins: number, runs: number) => measureRoundTrips(source, plugins, runs),

	/** The in-browser model at `modelUrl`, loaded with `threads` threads, answering `runs` times. */
	localModel: (modelUrl: string, threads: number, runs: number, maxTokens: number) => measureLocalModel(modelUrl, threads, runs, maxTokens),

	/** Tool calls to the MCP server at `url`: the SDK's Client straight from the page against the app's tool-server worker. */
	toolRoundTrips: (url: string, options: ToolRoundTripOptions) => measureToolRoundTrips(url, options),

	/** A first sync between two devices through the server database at `url`, and new messages' trip from one to the other. */
	syncRounds: (url: string, options: SyncRoundOptions) => measureSyncRounds(url, options),

	/** A first sync in a worker, as the app runs sync, through a new database on `server`; the page's long tasks meanwhile. */
	firstSyncInWorker: (server: string, options: FirstSyncOptions) => firstSyncInWorker(server, options)
};

declare global {
	interface Window {
		bench: typeof bench;
	}
}
window.bench = bench;
