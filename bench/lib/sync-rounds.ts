// Sync between two devices in Chromium: each a profile database of the app's own schema in
// Chromium's IndexedDB, with the app's sync store and loop, through one database of a
// CouchDB-compatible server. (1) A first sync: one device holds `sessions` sessions of
// `messages` messages and sends them; the other, empty, receives them all. Against the floor:
// the same rows written straight into a fresh database. (2) A new message: written on one
// device, the time until the other, long-polling as an open tab does, has it stored. (3) A first
// sync in a worker, as the app runs sync (with or without a sync passphrase), and the long tasks
// the page had meanwhile.
import { wrap } from 'comlink';
import { appendMessages } from '../../src/lib/db/message-verbs';
import type { PalimpsestDb } from '../../src/lib/db/database';
import { CouchClient } from '../../src/lib/sync/couch-client';
import { createSyncStore } from '../../src/lib/sync/dexie-sync-store';
import { SyncLoop } from '../../src/lib/sync/sync-loop';
import { profileRows, syncUntilQuiet, write, type FirstSync, type FirstSyncOptions } from './first-sync';
import { withDatabase } from './scratch-database';

export interface SyncRoundOptions {
	sessions: number;
	messages: number;
	/** How many new messages are timed from one device to the other. */
	latencyRuns: number;
}

export interface SyncRounds {
	rows: number;
	/** ms: the same rows written straight into a fresh database (one transaction). */
	floorMs: number;
	/** ms: the first device finds and sends everything (until nothing is pending). */
	sendMs: number;
	/** ms: the second, empty device receives and stores everything. */
	receiveMs: number;
	/** Requests each way. */
	passes: { send: number; receive: number };
	/** ms per new message, from its write on one device to its row on the other. */
	latencyMs: number[];
}

/** A first sync in a worker of its own through a new database on `server`, and the long tasks (over 50 ms) the page had meanwhile. */
export async function firstSyncInWorker(server: string, options: FirstSyncOptions): Promise<{ result: FirstSync; longTasks: number }> {
	const url = `${server}/bench-sync-${options.passphrase ? 'sealed' : 'plain'}-${crypto.randomUUID()}`;
	const created = await fetch(url, { method: 'PUT' });
	if (created.status !== 201) throw new Error(`The server did not create the database (${created.status}).`);
	const worker = new Worker(new URL('./first-sync.worker.ts', import.meta.url), { type: 'module', name: 'first-sync' });
	const api = wrap<{ measureFirstSync: (url: string, options: FirstSyncOptions) => Promise<FirstSync> }>(worker);
	let longTasks = 0;
	const observer = new PerformanceObserver((list) => (longTasks += list.getEntries().length));
	observer.observe({ type: 'longtask' });
	try {
		return { result: await api.measureFirstSync(url, options), longTasks };
	} finally {
		observer.disconnect();
		worker.terminate();
	}
}

export async function measureSyncRounds(serverDb: string, options: SyncRoundOptions): Promise<SyncRounds> {
	const rows = profileRows(options.sessions, options.messages);
	const floorMs = await withDatabase(async (db) => {
		const started = performance.now();
		await write(db, rows);
		return performance.now() - started;
	});
	return withDatabase((a) =>
		withDatabase(async (b) => {
			await write(a, rows);
			const loopOf = (db: PalimpsestDb) => new SyncLoop({ store: createSyncStore(db), client: new CouchClient({ url: serverDb }), longPollMs: 10_000, visible: () => true });
			const [sendLoop, receiveLoop] = [loopOf(a), loopOf(b)];
			let started = performance.now();
			const send = await syncUntilQuiet(sendLoop);
			const sendMs = performance.now() - started;
			started = performance.now();
			const receive = await syncUntilQuiet(receiveLoop);
			const receiveMs = performance.now() - started;
			const received = await b.messages.count();
			if (received !== rows.messageRows.length) throw new Error(`The second device has ${received} of ${rows.messageRows.length} messages.`);

			// New messages while the second device long-polls, as an open tab does.
			const stop = new AbortController();
			const running = receiveLoop.run(stop.signal).catch(() => {});
			const latencyMs: number[] = [];
			const sessionId = rows.sessionRows[0].id;
			try {
				for (let run = 0; run < options.latencyRuns; run++) {
					const id = `bench-new-${run}`;
					const begun = performance.now();
					await appendMessages(a, sessionId, [{ id, role: 'user', content: `A new message, number ${run}.`, status: 'complete', kind: 'message', created_at: Date.now() }]);
					await sendLoop.syncOnce();
					while (!(await b.messages.where('id').equals(id).count())) await new Promise((resolve) => setTimeout(resolve, 2));
					latencyMs.push(performance.now() - begun);
				}
			} finally {
				stop.abort();
				await running;
			}
			return { rows: rows.messageRows.length + rows.sessionRows.length, floorMs, sendMs, receiveMs, passes: { send, receive }, latencyMs };
		})
	);
}
