// Deleting and archiving session rows. Each operation is one transaction that also writes its
// receipt, so an exact retry (same operation id) finds the receipt and changes nothing more.
// Messages go by key range per session: their primary key is [session_id+seq].
import type { DBCoreKeyRange, DBCoreTransaction } from 'dexie';
import { Dexie, type PalimpsestDb } from './database';
import type { MessageRow, ReceiptRow, SessionRow, UnfiredHook } from './schema';
import { dropUnusedFrames, listFramesOfSessions } from './request-frames';
import { strictTwin } from './strict-twin';
import { deletedId } from './sync-outbox';

export interface OperationWrite {
	op_id: string;
	reason: string;
	/** The operation's target, as the user or the sweep named it. */
	session_id: string;
	at: number;
	/** The hook the operation owes, from the sessions it really took (none: it owes nothing). */
	owes?: (sessionIds: readonly string[]) => UnfiredHook | undefined;
}

/**
 * What an operation was planned on, checked again inside its transaction. Another tab may have
 * changed the sessions between the plan and the commit (a compaction that rotated a session
 * into a new child, a message, a rename): the commit then changes nothing and throws
 * StalePlanError, and the caller plans again or gives up.
 */
export interface PlanCheck {
	/**
	 * Every session the plan read. A child of a taken session that is not among them was made
	 * since: the plan did not decide whether it goes too.
	 */
	planned?: ReadonlySet<string>;
	/** The taken rows as the plan read them: any change since means they may no longer qualify. */
	unchanged?: readonly SessionRow[];
}

export class StalePlanError extends Error {
	constructor(message = 'The sessions changed while this was being done; nothing was changed. Try again.') {
		super(message);
		this.name = 'StalePlanError';
	}
}

function checkPlan(check: PlanCheck, rows: readonly SessionRow[], children: readonly SessionRow[]): void {
	if (check.planned && children.some((child) => !check.planned!.has(child.id))) throw new StalePlanError();
	if (check.unchanged) {
		const now = new Map(rows.map((row) => [row.id, JSON.stringify(row)]));
		if (check.unchanged.some((row) => now.get(row.id) !== JSON.stringify(row))) throw new StalePlanError();
	}
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

// DBCoreRangeType.Range (a const enum, which isolated modules cannot read from Dexie's types).
const CORE_RANGE = 2 as DBCoreKeyRange['type'];

/**
 * Deletes every message of these sessions and the images they show, one key range each, all requests issued at once in
 * the current transaction. Dexie's own Collection.delete() waits for each write before the next
 * (and counts first), which made a thousand sessions cost seconds; its DBCore layer still
 * records the change for live queries and other tabs.
 */
function deleteMessageRanges(db: PalimpsestDb, sessionIds: readonly string[]): Promise<unknown> {
	const trans = Dexie.currentTransaction.idbtrans as unknown as DBCoreTransaction;
	// The images the messages show go with them: their keys begin with the session id too.
	return Promise.all(
		[db.messages, db.blobs].flatMap((table) =>
			sessionIds.map((id) =>
				table.core.mutate({
					trans,
					type: 'deleteRange',
					range: { type: CORE_RANGE, lower: [id, Dexie.minKey], upper: [id, Dexie.maxKey], lowerOpen: false, upperOpen: false }
				})
			)
		)
	);
}

/**
 * Removes the sessions in `remove` (those still there) with all their messages and the request
 * frames no remaining message refers to, clears the parent link of every remaining child of a
 * removed session, and writes the receipt, in one strictly durable transaction. `leftovers`
 * names sessions with no row whose message rows are removed too. The receipt lists what really
 * went: removed rows, then cleared leftovers.
 */
export async function commitDeletion(
	db: PalimpsestDb,
	write: OperationWrite & { remove: readonly string[]; leftovers?: readonly string[]; check?: PlanCheck }
): Promise<CommittedOperation> {
	const strict = strictTwin(db);
	const { remove, leftovers = [], check = {}, owes, ...fields } = write;
	return strict.transaction('rw', [strict.sessions, strict.messages, strict.blobs, strict.receipts, strict.settings, strict.sync_outbox], async () => {
		const stored = await strict.receipts.get(fields.op_id);
		if (stored) return { receipt: stored, replayed: true };
		// A leftover whose session row has come back (an import) keeps its messages. The frames
		// are read before any row goes (a cursor's later steps would run after the deletes).
		const [back, frames] = await Promise.all([getSessions(strict, leftovers), listFramesOfSessions(strict, [...remove, ...leftovers])]);
		const returned = new Set(back.map((row) => row.id));
		const cleared = leftovers.filter((id) => !returned.has(id) && !remove.includes(id));
		// Everything issued at once, as IndexedDB runs a transaction's requests in order: the read
		// sees the rows before they go, and no request waits for the one before it to come back.
		const [rows] = await Promise.all([
			getSessions(strict, remove),
			deleteMessageRanges(strict, [...remove, ...cleared]),
			strict.sessions.bulkDelete([...remove])
		]);
		const present = rows.map((row) => row.id);
		const gone = new Set(present);
		const children = present.length ? await strict.sessions.where('parent_session_id').anyOf(present).toArray() : [];
		// Thrown inside the transaction, so the deletes issued above are rolled back.
		checkPlan(check, rows, children);
		const detached = children.filter((row) => !gone.has(row.id)).map((row) => row.id);
		const receipt: ReceiptRow = withOwed({ ...fields, session_ids: [...present, ...cleared], detached_ids: detached }, owes);
		await Promise.all([
			strict.sessions.bulkUpdate(detached.map((key) => ({ key, changes: { parent_session_id: null, parent_kind: null } }))),
			strict.receipts.add(receipt),
			// The user's deletion goes to every device; a sweep's removal stays this device's own.
			fields.reason === 'delete' ? strict.sync_outbox.bulkPut(present.map((id) => ({ id: deletedId(id), at: fields.at, intent: 'delete' as const }))) : undefined,
			// What the deleted conversations sent goes with them; frames other sessions use stay.
			dropUnusedFrames(strict, frames)
		]);
		return { receipt, replayed: false };
	});
}

/** Message keys read per request when looking for leftovers: it grows while pages span many sessions. */
const FIRST_KEY_PAGE = 256;
const MIN_KEY_PAGE = 16;
const MAX_KEY_PAGE = 8192;

/**
 * Sessions that have message rows but no session row (left by an interrupted write or an old
 * bug). Message keys start with their session id: this reads them in pages of keys (no
 * values), each page jumping past the rest of the last session it reached, so a profile of many
 * short sessions is read in a few large pages and one of a few long sessions in a few small
 * ones per session. Measured in Chromium over 10,000 sessions: one probe per session took
 * seconds with a long task; a key cursor jumping session to session took ~4 ms per jump.
 * Each page is its own short read, so writers never wait long; a session created meanwhile
 * may be listed, and the deletion keeps the messages of any session whose row exists by then.
 */
export async function listLeftoverMessageSessions(db: PalimpsestDb): Promise<string[]> {
	const known = new Set(await db.sessions.toCollection().primaryKeys());
	const found: string[] = [];
	let page = FIRST_KEY_PAGE;
	let after: [string, unknown] | null = null;
	for (;;) {
		const keys: Array<[string, number]> = await (after ? db.messages.where(':id').above(after) : db.messages.toCollection()).limit(page).primaryKeys();
		let sessions = 0;
		keys.forEach(([sessionId], index) => {
			if (index > 0 && keys[index - 1][0] === sessionId) return;
			sessions += 1;
			if (!known.has(sessionId)) found.push(sessionId);
		});
		if (keys.length < page) return found;
		after = [keys[keys.length - 1][0], Dexie.maxKey];
		page = sessions > 16 ? Math.min(MAX_KEY_PAGE, page * 2) : sessions <= 2 ? Math.max(MIN_KEY_PAGE, page / 2) : page;
	}
}

/** Which of these sessions have a user or assistant message of the conversation (not commands or notices). */
export function sessionsWithConversation(db: PalimpsestDb, ids: readonly string[]): Promise<Set<string>> {
	return sessionsWhere(db, ids, (row) => (row.role === 'user' || row.role === 'assistant') && (row.kind === 'message' || row.kind === 'summary'));
}

/** Which of these sessions have any message row at all. */
export function sessionsWithMessages(db: PalimpsestDb, ids: readonly string[]): Promise<Set<string>> {
	return sessionsWhere(db, ids, () => true);
}

/** One read transaction, one early-stopping probe per session, all issued at once. */
async function sessionsWhere(db: PalimpsestDb, ids: readonly string[], test: (row: MessageRow) => boolean): Promise<Set<string>> {
	if (!ids.length) return new Set();
	const found = await db.transaction('r', db.messages, () =>
		Promise.all(ids.map(async (id) => ((await messagesOf(db, id).filter(test).first()) ? id : null)))
	);
	return new Set(found.filter((id): id is string => id !== null));
}

/**
 * Archives the sessions in `ids` that are not archived yet and writes the receipt, in one
 * strictly durable transaction. The receipt lists only the rows that really changed.
 */
export async function commitArchive(
	db: PalimpsestDb,
	write: OperationWrite & { ids: readonly string[]; check?: PlanCheck }
): Promise<CommittedOperation> {
	const strict = strictTwin(db);
	const { ids, check = {}, owes, ...fields } = write;
	return strict.transaction('rw', strict.sessions, strict.receipts, async () => {
		const stored = await strict.receipts.get(fields.op_id);
		if (stored) return { receipt: stored, replayed: true };
		const [rows, children] = await Promise.all([getSessions(strict, ids), listChildSessions(strict, ids)]);
		checkPlan(check, rows, children);
		const changed = rows.filter((row) => row.archived === 0).map((row) => row.id);
		await strict.sessions.bulkUpdate(changed.map((key) => ({ key, changes: { archived: 1 as const } })));
		const receipt: ReceiptRow = withOwed({ ...fields, session_ids: changed, detached_ids: [] }, owes);
		await strict.receipts.add(receipt);
		return { receipt, replayed: false };
	});
}

/** The receipt with the hook it owes, written in the same transaction as what it announces. */
function withOwed(receipt: ReceiptRow, owes: OperationWrite['owes']): ReceiptRow {
	const unfired = owes?.(receipt.session_ids);
	return unfired ? { ...receipt, unfired } : receipt;
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
