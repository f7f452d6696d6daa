// A first sync between two devices as the app runs it (in a worker, through SealedClient and the
// key check each pass): one device holds `sessions` sessions of `messages` messages and sends
// them; the other, empty, receives them all. With a passphrase the first device makes the
// database's key and the second derives it from the passphrase: both are timed with the rest.
import type { PalimpsestDb } from '../../src/lib/db/database';
import { withDatabase } from './scratch-database';
import type { MessageRow, SessionRow } from '../../src/lib/db/schema';
import { createKeyStore } from '../../src/lib/sync/dexie-key-store';
import { createSyncStore } from '../../src/lib/sync/dexie-sync-store';
import { SealingSetup } from '../../src/lib/sync/prepare-sealing';
import { SealedClient } from '../../src/lib/sync/sealed-client';
import { SyncLoop } from '../../src/lib/sync/sync-loop';
import { openJson, sealJson, type Sealed } from '../../src/lib/sync/seal-envelope';
import { deriveKey } from '../../src/lib/sync/sync-key';
import { conversationRows, seededSession, storedRows } from './seed-rows';
import { measureServerFloor, type ServerFloor } from './server-floor';
import { deviceFloorRuns, measureDeviceFloor, type DeviceFloor } from './device-floor';

export interface FirstSyncOptions {
	sessions: number;
	messages: number;
	/** The Sync passphrase both devices type (null: the database is not encrypted). */
	passphrase: string | null;
}

export interface FirstSync {
	rows: number;
	/** ms: the first device finds and sends everything (until nothing is pending). */
	sendMs: number;
	/** ms: the second, empty device receives and stores everything. */
	receiveMs: number;
	/** Passes each way. */
	passes: { send: number; receive: number };
	/** With a passphrase, ms of the crypto alone, timed again after the sync: opening every document the server holds, sealing each again, deriving the key once. */
	crypto?: { openMs: number; sealMs: number; deriveMs: number; documents: number };
	/** The same documents straight through the server: posted with `_bulk_docs`, read from `_changes`. */
	floor: ServerFloor;
	/** The IndexedDB work of the same sync alone, with nothing of sync's code (see device-floor.ts). */
	device: DeviceFloor;
	/** ms spent in each call of the sync store and the client, sending and receiving (calls overlap none: a pass runs one at a time). */
	phases: { send: Record<string, number>; receive: Record<string, number> };
}

/** `target` with the time of each of its methods' calls added to `totals` under its name. */
function timed<T extends object>(target: T, totals: Record<string, number>, prefix: string): T {
	return new Proxy(target, {
		get(object, key) {
			const value = Reflect.get(object, key);
			if (typeof value !== 'function' || typeof key !== 'string') return value;
			return async (...args: unknown[]) => {
				const started = performance.now();
				try {
					return await value.apply(object, args);
				} finally {
					totals[`${prefix}.${key}`] = (totals[`${prefix}.${key}`] ?? 0) + performance.now() - started;
				}
			};
		}
	});
}


/** The profile's sessions and rows: `sessions` copies of one conversation of `messages` rows. */
export function profileRows(sessions: number, messages: number): { sessionRows: SessionRow[]; messageRows: MessageRow[] } {
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

export async function write(db: PalimpsestDb, rows: ReturnType<typeof profileRows>): Promise<void> {
	await db.transaction('rw', db.sessions, db.messages, async () => {
		await db.sessions.bulkAdd(rows.sessionRows);
		await db.messages.bulkAdd(rows.messageRows);
	});
}

/** Passes until one moves nothing. */
export async function syncUntilQuiet(loop: SyncLoop): Promise<number> {
	let passes = 0;
	for (;;) {
		passes += 1;
		const outcome = await loop.syncOnce();
		if (!outcome.pushed && !outcome.pulled) return passes;
	}
}

/** The app's loop for `db`: its client, and the key check before each pass with `passphrase` typed; the time of each store and client call added to `totals`. */
function loopOf(db: PalimpsestDb, url: string, passphrase: string | null, totals: Record<string, number>): SyncLoop {
	const client = new SealedClient({ url });
	const sealing = new SealingSetup({ client, keys: createKeyStore(db), passphrase });
	return new SyncLoop({ store: timed(createSyncStore(db), totals, 'store'), client: timed(client, totals, 'client'), beforePass: (signal) => sealing.prepare(signal) });
}

/** The crypto of a first sync alone: every sealed document on the server opened, then sealed again, and the key derived. */
async function timeCrypto(url: string, db: PalimpsestDb, passphrase: string): Promise<NonNullable<FirstSync['crypto']>> {
	const keyring = (await createKeyStore(db).read())!;
	const listed = (await (await fetch(`${url}/_all_docs?include_docs=true`)).json()) as { rows: { id: string; doc: { sealed?: Sealed } }[] };
	const sealed = listed.rows.filter((row) => row.doc.sealed);
	let started = performance.now();
	const bodies = await Promise.all(sealed.map((row) => openJson(keyring.current, row.id, row.doc.sealed!)));
	const openMs = performance.now() - started;
	started = performance.now();
	await Promise.all(sealed.map((row, at) => sealJson(keyring.current, row.id, bodies[at])));
	const sealMs = performance.now() - started;
	started = performance.now();
	await deriveKey(passphrase, keyring.current.salt, keyring.current.iterations);
	return { openMs, sealMs, deriveMs: performance.now() - started, documents: sealed.length };
}

export async function measureFirstSync(url: string, options: FirstSyncOptions): Promise<FirstSync> {
	const rows = profileRows(options.sessions, options.messages);
	return withDatabase((a) =>
		withDatabase(async (b) => {
			await write(a, rows);
			const phases = { send: {}, receive: {} };
			let started = performance.now();
			const send = await syncUntilQuiet(loopOf(a, url, options.passphrase, phases.send));
			const sendMs = performance.now() - started;
			started = performance.now();
			const receive = await syncUntilQuiet(loopOf(b, url, options.passphrase, phases.receive));
			const receiveMs = performance.now() - started;
			const received = await b.messages.count();
			if (received !== rows.messageRows.length) throw new Error(`The second device has ${received} of ${rows.messageRows.length} messages.`);
			const crypto = options.passphrase ? await timeCrypto(url, b, options.passphrase) : undefined;
			const runs = await deviceFloorRuns(a, b);
			const floor = await measureServerFloor(url, runs);
			const device = await measureDeviceFloor(runs);
			return { rows: rows.messageRows.length + rows.sessionRows.length, sendMs, receiveMs, passes: { send, receive }, floor, device, phases, ...(crypto ? { crypto } : {}) };
		})
	);
}
