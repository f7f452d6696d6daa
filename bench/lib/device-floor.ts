// The device's own floor for a first sync: the IndexedDB work no sync can do without, timed in
// the same worker right after the sync, with nothing of sync's own code running. Receiving: the
// rows the second device ended with (its sessions, their messages and sync's record of each
// document) written straight into a fresh database, one transaction per page of the feed.
// Sending: the first device's message rows read back a page at a time, and sync's record of each
// document it sent written straight into a fresh database, one transaction per page. Receiving
// is also timed with IndexedDB's own API, no library between: the rows alone, and the rows with
// their sync records (what no receiving code can go below on this browser and machine).
import { Dexie, type PalimpsestDb } from '../../src/lib/db/database';
import type { MessageRow, SessionRow, SyncDocRow } from '../../src/lib/db/schema';
import { DEFAULT_PULL_LIMIT } from '../../src/lib/sync/pull-changes';
import { withDatabase } from './scratch-database';

export interface DeviceFloor {
	/** ms: the received rows and sync records written straight. */
	receiveMs: number;
	/** ms: the sent rows read, and their sync records written straight. */
	sendMs: number;
	/** ms: with IndexedDB's own API (no Dexie), the received session and message rows alone, and with their sync records. */
	bare: { rowsMs: number; withRecordsMs: number };
}

/** Each session with its messages and sync records, in the order a first sync moves them. */
interface SessionRows {
	session: SessionRow;
	messages: MessageRow[];
	records: SyncDocRow[];
}

async function rowsBySession(db: PalimpsestDb): Promise<SessionRows[]> {
	const [sessions, messages, records] = await Promise.all([db.sessions.toArray(), db.messages.toArray(), db.sync_docs.toArray()]);
	const of = new Map(sessions.map((session) => [session.id, { session, messages: [] as MessageRow[], records: [] as SyncDocRow[] }]));
	for (const row of messages) of.get(row.session_id)?.messages.push(row);
	for (const row of records) of.get(row.session_id)?.records.push(row);
	return [...of.values()];
}

/** `all` in pages of about `documents` documents (a session's stay together, as its documents come in a row). */
function pages(all: readonly SessionRows[], documents: number): SessionRows[][] {
	const out: SessionRows[][] = [[]];
	let count = 0;
	for (const rows of all) {
		if (count >= documents) {
			out.push([]);
			count = 0;
		}
		out.at(-1)!.push(rows);
		count += rows.records.length;
	}
	return out;
}

async function timeReceive(received: readonly SessionRows[]): Promise<number> {
	return withDatabase(async (db) => {
		const started = performance.now();
		for (const page of pages(received, DEFAULT_PULL_LIMIT)) {
			await db.transaction('rw', [db.sessions, db.messages, db.sync_docs], async () => {
				await Promise.all([db.sessions.bulkAdd(page.map((rows) => rows.session)), db.messages.bulkAdd(page.flatMap((rows) => rows.messages)), db.sync_docs.bulkAdd(page.flatMap((rows) => rows.records))]);
			});
		}
		return performance.now() - started;
	});
}

/** The received rows (and, with `records`, their sync records) written with IndexedDB's own API, one transaction per page. */
async function timeBareReceive(received: readonly SessionRows[], records: boolean): Promise<number> {
	return withDatabase(async (db) => {
		const idb = (await db.open()).backendDB();
		const stores = records ? ['sessions', 'messages', 'sync_docs'] : ['sessions', 'messages'];
		const started = performance.now();
		for (const page of pages(received, DEFAULT_PULL_LIMIT)) {
			await new Promise<void>((resolve, reject) => {
				const transaction = idb.transaction(stores, 'readwrite');
				const [sessions, messages] = [transaction.objectStore('sessions'), transaction.objectStore('messages')];
				const syncDocs = records ? transaction.objectStore('sync_docs') : null;
				for (const rows of page) {
					sessions.add(rows.session);
					for (const row of rows.messages) messages.add(row);
					if (syncDocs) for (const row of rows.records) syncDocs.add(row);
				}
				transaction.oncomplete = () => resolve();
				transaction.onerror = () => reject(transaction.error);
				transaction.onabort = () => reject(transaction.error);
			});
		}
		return performance.now() - started;
	});
}

async function timeSend(sender: PalimpsestDb, sent: readonly SessionRows[]): Promise<number> {
	return withDatabase(async (db) => {
		const started = performance.now();
		for (const page of pages(sent, DEFAULT_PULL_LIMIT)) {
			const ranges = page.map((rows): [unknown, unknown] => [
				[rows.session.id, Dexie.minKey],
				[rows.session.id, Dexie.maxKey]
			]);
			await sender.messages.where('[session_id+seq]').inAnyRange(ranges).toArray();
			await db.sync_docs.bulkAdd(page.flatMap((rows) => rows.records));
		}
		return performance.now() - started;
	});
}

/** This device's floor of each side of a first sync from `sender` to `receiver` (both done with it), to run when wanted: each run times it in a fresh database. */
export interface DeviceFloorRuns {
	send(): Promise<number>;
	receive(): Promise<number>;
	received: readonly SessionRows[];
}

export async function deviceFloorRuns(sender: PalimpsestDb, receiver: PalimpsestDb): Promise<DeviceFloorRuns> {
	const [sent, received] = [await rowsBySession(sender), await rowsBySession(receiver)];
	return { send: () => timeSend(sender, sent), receive: () => timeReceive(received), received };
}

/** The floors (see deviceFloorRuns). */
export async function measureDeviceFloor(runs: DeviceFloorRuns): Promise<DeviceFloor> {
	const receiveMs = await runs.receive();
	const bare = { rowsMs: await timeBareReceive(runs.received, false), withRecordsMs: await timeBareReceive(runs.received, true) };
	const sendMs = await runs.send();
	return { receiveMs, sendMs, bare };
}
