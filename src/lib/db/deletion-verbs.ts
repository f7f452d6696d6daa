// Deleting and archiving session rows. Each operation is one transaction that also writes its
// receipt, so an exact retry (same operation id) finds the receipt and changes nothing more.
// Messages go by key range per session: their primary key is [session_id+seq].
import { Dexie, type PalimpsestDb } from './database';
import type { ReceiptRow, SessionRow } from './schema';
import { strictTwin } from './strict-twin';

export interface OperationWrite {
	op_id: string;
	reason: string;
	/** The operation's target, as the user or the sweep named it. */
	session_id: string;
	at: number;
}

export interface CommittedOperation {
	receipt: ReceiptRow;
	/** True when the receipt was already there: nothing was written this time. */
	replayed: boolean;
}

export function getReceipt(db: PalimpsestDb, opId: string): Promise<ReceiptRow | undefined> {
	return db.receipts.get(opId);
}

/** The rows with these ids that still exist, in the order asked. */
export async function getSessions(db: PalimpsestDb, ids: readonly string[]): Promise<SessionRow[]> {
	return (await db.sessions.bulkGet([...ids])).filter((row): row is SessionRow => row !== undefined);
}

/** Every session whose parent is one of `parentIds`. */
export function listChildSessions(db: PalimpsestDb, parentIds: readonly string[]): Promise<SessionRow[]> {
	if (!parentIds.length) return Promise.resolve([]);
	return db.sessions.where('parent_session_id').anyOf([...parentIds]).toArray();
}

function messagesOf(db: PalimpsestDb, sessionId: string) {
	return db.messages.where('[session_id+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]);
}

/**
 * Removes the sessions in `remove` (those still there) with all their messages, clears the
 * parent link of every remaining child of a removed session, and writes the receipt, in one
 * strictly durable transaction. `leftovers` names sessions with no row whose message rows are
 * removed too. The receipt lists what really went: removed rows, then cleared leftovers.
 */
export async function commitDeletion(
	db: PalimpsestDb,
	write: OperationWrite & { remove: readonly string[]; leftovers?: readonly string[] }
): Promise<CommittedOperation> {
	const strict = strictTwin(db);
	const { remove, leftovers = [], ...fields } = write;
	return strict.transaction('rw', strict.sessions, strict.messages, strict.receipts, async () => {
		const stored = await strict.receipts.get(fields.op_id);
		if (stored) return { receipt: stored, replayed: true };
		const present = (await getSessions(strict, remove)).map((row) => row.id);
		// A leftover whose session row has come back (an import) keeps its messages.
		const returned = new Set((await getSessions(strict, leftovers)).map((row) => row.id));
		const cleared = leftovers.filter((id) => !returned.has(id) && !present.includes(id));
		for (const id of [...present, ...cleared]) await messagesOf(strict, id).delete();
		await strict.sessions.bulkDelete(present);
		const gone = new Set(present);
		const children = present.length ? await strict.sessions.where('parent_session_id').anyOf(present).toArray() : [];
		const detached = children.filter((row) => !gone.has(row.id)).map((row) => row.id);
		await strict.sessions.bulkUpdate(detached.map((key) => ({ key, changes: { parent_session_id: null, parent_kind: null } })));
		const receipt: ReceiptRow = { ...fields, session_ids: [...present, ...cleared], detached_ids: detached };
		await strict.receipts.add(receipt);
		return { receipt, replayed: false };
	});
}

/**
 * Sessions that have message rows but no session row (left by an interrupted write or an old
 * bug). One key-range probe per leftover found: the gaps between stored session ids are
 * searched for any message key.
 */
export async function listLeftoverMessageSessions(db: PalimpsestDb): Promise<string[]> {
	const known = (await db.sessions.toCollection().primaryKeys()).sort();
	const found: string[] = [];
	for (;;) {
		const gaps: Array<[unknown, unknown]> = [];
		let lower: unknown = Dexie.minKey;
		for (const id of known) {
			gaps.push([lower, [id, Dexie.minKey]]);
			lower = [id, Dexie.maxKey];
		}
		gaps.push([lower, Dexie.maxKey]);
		const [key] = await db.messages
			.where('[session_id+seq]')
			.inAnyRange(gaps, { includeLowers: false, includeUppers: false })
			.limit(1)
			.primaryKeys();
		if (!key) return found;
		const id = key[0];
		found.push(id);
		known.splice(sortedIndex(known, id), 0, id);
	}
}

function sortedIndex(sorted: string[], id: string): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if (sorted[mid] < id) low = mid + 1;
		else high = mid;
	}
	return low;
}

/** Whether a session has a user or assistant message of the conversation (not commands or notices). */
export async function hasConversation(db: PalimpsestDb, sessionId: string): Promise<boolean> {
	const first = await messagesOf(db, sessionId)
		.filter((row) => (row.role === 'user' || row.role === 'assistant') && (row.kind === 'message' || row.kind === 'summary'))
		.first();
	return first !== undefined;
}

/** Whether a session has any message row at all. */
export async function hasMessages(db: PalimpsestDb, sessionId: string): Promise<boolean> {
	return (await messagesOf(db, sessionId).limit(1).primaryKeys()).length > 0;
}

/**
 * Archives the sessions in `ids` that are not archived yet and writes the receipt, in one
 * strictly durable transaction. The receipt lists only the rows that really changed.
 */
export async function commitArchive(
	db: PalimpsestDb,
	write: OperationWrite & { ids: readonly string[] }
): Promise<CommittedOperation> {
	const strict = strictTwin(db);
	return strict.transaction('rw', strict.sessions, strict.receipts, async () => {
		const stored = await strict.receipts.get(write.op_id);
		if (stored) return { receipt: stored, replayed: true };
		const changed = (await strict.sessions.bulkGet([...write.ids]))
			.filter((row) => row !== undefined && row.archived === 0)
			.map((row) => row!.id);
		await strict.sessions.bulkUpdate(changed.map((key) => ({ key, changes: { archived: 1 as const } })));
		const receipt: ReceiptRow = { ...write, session_ids: changed, detached_ids: [] };
		await strict.receipts.add(receipt);
		return { receipt, replayed: false };
	});
}

/** Sets the archived flag without a receipt (unarchive, auto-archive); returns the ids that changed. */
export async function setArchivedFlag(db: PalimpsestDb, ids: readonly string[], archived: 0 | 1): Promise<string[]> {
	return db.transaction('rw', db.sessions, async () => {
		const changed = (await db.sessions.bulkGet([...ids]))
			.filter((row) => row !== undefined && row.archived !== archived)
			.map((row) => row!.id);
		await db.sessions.bulkUpdate(changed.map((key) => ({ key, changes: { archived } })));
		return changed;
	});
}

/** Forgets receipts older than `before`: an exact retry comes within seconds, not weeks. */
export function deleteReceiptsBefore(db: PalimpsestDb, before: number): Promise<number> {
	return db.receipts.where('at').below(before).delete();
}
