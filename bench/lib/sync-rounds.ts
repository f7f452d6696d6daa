// Sync between two devices in Chromium: each a profile database of the app's own schema in
// Chromium's IndexedDB, with the app's sync store and loop, through one database of a
// CouchDB-compatible server. (1) A first sync: one device holds `sessions` sessions of
// `messages` messages and sends them; the other, empty, receives them all. Against the floor:
// the same rows written straight into a fresh database. (2) A new message: written on one
// device, the time until the other, long-polling as an open tab does, has it stored.
import { appendMessages } from '../../src/lib/db/message-verbs';
import { PalimpsestDb } from '../../src/lib/db/database';
import type { MessageRow, SessionRow } from '../../src/lib/db/schema';
import { CouchClient } from '../../src/lib/sync/couch-client';
import { createSyncStore } from '../../src/lib/sync/dexie-sync-store';
import { SyncLoop } from '../../src/lib/sync/sync-loop';
import { conversationRows, seededSession, storedRows } from './seed-rows';

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

async function withDatabase<T>(work: (db: PalimpsestDb) => Promise<T>): Promise<T> {
	const db = new PalimpsestDb(`palimpsest-bench-sync-${crypto.randomUUID()}`);
	try {
		return await work(db);
	} finally {
		db.close();
		await db.delete();
	}
}

/** The profile's sessions and rows: `sessions` copies of one conversation of `messages` rows. */
function profileRows(sessions: number, messages: number): { sessionRows: SessionRow[]; messageRows: MessageRow[] } {
	const conversation = conversationRows(messages);
	const sessionRows: SessionRow[] = [];
	const messageRows: MessageRow[] = [];
	for (let s = 0; s < sessions; s++) {
		const id = `bench-session-${String(s).padStart(5, '0')}`;
		const rows = storedRows(id, conversation.map((row) => ({ ...row, id: `${id}-${row.id}` })));
		messageRows.push(...rows);
		sessionRows.push(seededSession(id, `Session ${s}`, rows));
	}
	return { sessionRows, messageRows };
}

async function write(db: PalimpsestDb, rows: ReturnType<typeof profileRows>): Promise<void> {
	await db.transaction('rw', db.sessions, db.messages, async () => {
		await db.sessions.bulkAdd(rows.sessionRows);
		await db.messages.bulkAdd(rows.messageRows);
	});
}

/** Passes until one moves nothing. */
async function syncUntilQuiet(loop: SyncLoop): Promise<number> {
	let passes = 0;
	for (;;) {
		passes += 1;
		const outcome = await loop.syncOnce();
		if (!outcome.pushed && !outcome.pulled) return passes;
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
