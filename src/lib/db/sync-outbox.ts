// The outbox of sync: every write of this device to sessions, messages, Blobs or saved prompts records, in the
// same transaction, which synced document it changed. Sync takes its changes from here, never by
// comparing tables, so a change is never missed nor marked as sent by anything but its sending.
// A DBCore middleware: it adds the outbox to every read-write transaction over those tables (as
// Dexie Cloud does for its mutation tables) and writes an entry per changed document. Sync's own
// transactions (those over sync_docs) write what arrived from elsewhere: they record nothing.
import { type DBCore, type DBCoreMutateRequest, type DBCoreMutateResponse, type DBCoreTable, type DBCoreTransaction } from 'dexie';
import type Dexie from 'dexie';
import type { SyncOutboxRow } from './schema';

export const OUTBOX = 'sync_outbox';
const TRACKED = new Set(['sessions', 'messages', 'blobs', 'prompts', 'assistants']);
/** Sync's own tables: a transaction over them writes what sync brought, not a change of this device. */
const SYNC_TABLE = 'sync_docs';

/** The outbox id that asks sync to look for rows removed from a session. */
export const scanId = (sessionId: string) => `scan:${sessionId}`;
/** The outbox id that says the user deleted a session (a sweep's removal has none). */
export const deletedId = (sessionId: string) => `deleted:${sessionId}`;

function storeNames(trans: DBCoreTransaction): DOMStringList | string[] | undefined {
	return (trans as unknown as { objectStoreNames?: DOMStringList }).objectStoreNames;
}

function includes(names: DOMStringList | string[] | undefined, name: string): boolean {
	if (!names) return false;
	return Array.isArray(names) ? names.includes(name) : names.contains(name);
}

/** The outbox entries a write makes: one per document it changed. */
function entriesOf(table: string, req: DBCoreMutateRequest, res: DBCoreMutateResponse, at: number): SyncOutboxRow[] {
	const ids = new Set<string>();
	const failed = (index: number) => res.numFailures > 0 && index in res.failures;
	if (req.type === 'add' || req.type === 'put') {
		req.values.forEach((value: Record<string, unknown>, index) => {
			if (failed(index)) return;
			if (table === 'sessions') ids.add(`session:${value.id}`);
			else if (table === 'messages' && typeof value.position === 'string') ids.add(`msg:${value.session_id}:${value.position}`);
			else if (table === 'blobs') ids.add(`blob:${value.session_id}:${value.id}`);
			else if (table === 'prompts') ids.add(`prompt:${value.id}`);
			else if (table === 'assistants') ids.add(`assistant:${value.id}`);
		});
	} else if (req.type === 'delete') {
		req.keys.forEach((key, index) => {
			if (failed(index)) return;
			if (table === 'sessions') ids.add(`session:${key}`);
			else if (table === 'messages') ids.add(scanId((key as [string, number])[0]));
			else if (table === 'prompts') ids.add(`prompt:${key}`);
			else if (table === 'assistants') ids.add(`assistant:${key}`);
		});
	} else if (req.type === 'deleteRange' && table !== 'blobs' && table !== 'prompts' && table !== 'assistants') {
		const lower = req.range.lower as unknown;
		const upper = req.range.upper as unknown;
		const sessionId = Array.isArray(lower) && Array.isArray(upper) && lower[0] === upper[0] ? lower[0] : undefined;
		ids.add(typeof sessionId === 'string' ? scanId(sessionId) : 'scan:*');
	}
	return markWrite([...ids].map((id) => ({ id, at })));
}

/** `entries` marked as one write (see SyncOutboxRow.write): an entry written again later carries another mark. */
export function markWrite(entries: Array<Pick<SyncOutboxRow, 'id' | 'at'>>): SyncOutboxRow[] {
	const write = Math.random();
	return entries.map((entry) => ({ ...entry, write }));
}

/** Records every change to sessions, messages, Blobs and saved prompts in the outbox (installed in the constructor). */
export function recordOutbox(db: Dexie): void {
	db.use({
		stack: 'dbcore',
		name: 'sync-outbox',
		create: (down: DBCore): Partial<DBCore> => ({
			...down,
			transaction: (stores, mode, options) => {
				const tracked = mode === 'readwrite' && !stores.includes(SYNC_TABLE) && !stores.includes(OUTBOX) && stores.some((name) => TRACKED.has(name));
				return down.transaction(tracked && down.schema.tables.some((t) => t.name === OUTBOX) ? [...stores, OUTBOX] : stores, mode, options);
			},
			table: (name) => {
				const table = down.table(name);
				if (!TRACKED.has(name)) return table;
				return {
					...table,
					// Chained on Dexie's own promise (not an async function), so the transaction
					// stays alive across it as it does across any request of its own.
					mutate: (req) =>
						table.mutate(req).then((res) => {
							const names = storeNames(req.trans);
							if (!includes(names, OUTBOX) || includes(names, SYNC_TABLE)) return res;
							const values = entriesOf(name, req, res, Date.now());
							if (!values.length) return res;
							return (down.table(OUTBOX) as DBCoreTable).mutate({ trans: req.trans, type: 'put', values }).then(() => res);
						})
				};
			}
		})
	});
}
