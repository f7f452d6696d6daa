// Takes this device's changes from the outbox into sync's documents, inside a sync transaction:
// a session's or message's fields that changed take a new clock; a session whose row is gone was
// deleted by the user (the deletion syncs) or removed by one of this device's own rules (it stays
// this device's: nothing is sent); a message whose row is gone from a session still here was
// removed; a Blob new here is to send; a saved prompt's edit or deletion goes to its document. An answer still streaming stays in the outbox until final.
import { Dexie } from '../db/database';
import type { BlobRow, MessageRow, SessionRow, SyncDocRow, SyncOutboxRow } from '../db/schema';
import { blobEntries, readSessionBlobRows } from './dexie-blobs';
import { readEntries, readMessagesOf } from './dexie-read-runs';
import type { ReadRows } from './dexie-pending';
import { messageClocksOf, nextEdit, providerRefOf, sameProvider, sessionDocOf, type SyncContext } from './dexie-context';
import { blobDocId, messageDocId, parseDocId, sessionDocId } from './document-ids';
import { removedMessage } from './merge-message';
import { sameSession } from './merge-session';
import { fieldsOfRow, type MessageDoc } from './message-document';
import { stampSession } from './session-document';
import { stampMessage } from './stamp-message';
import type { RandomBytes } from './position';
import { applyHeld } from './dexie-apply';
import { stampPrompts } from './dexie-prompts';
import { stampAssistants } from './dexie-assistants';

/** What one stamp made of the outbox entries it was given. */
interface Stamped {
	/** Outbox ids taken in (deleted with the write). */
	done: string[];
	/** Sessions restored here: what arrived for them while they were deleted is theirs now. */
	restored: string[];
	/** The session, message and Blob entries it wrote. */
	puts: SyncDocRow[];
	/** Whether it wrote other entries too (saved prompts', assistants', or messages held for a restored session). */
	others: boolean;
	/** The message rows it read (by document id), and the Blob rows they show (by session). */
	read: ReadRows;
	/** Messages new to sync, left in the outbox to send as they are (only with `defer`). */
	fresh: FreshRow[];
}

/**
 * A message sync has never known (no entry): its first document is the same whenever it is made
 * (every field at the message's position), so it can be sent before it is taken in, and taken in
 * once, with the revision the server gave it (DexieSyncStore.markPushed); its outbox entry stays
 * until then. A first sync so writes each message's entry once rather than twice.
 */
export interface FreshMessage {
	id: string;
	doc: MessageDoc;
	sums: Record<string, string>;
	/** Its outbox entry as read (the same entry later: its row was not written meanwhile). */
	change: SyncOutboxRow;
}

/** A message new to sync as a stamp read it: its document is made once the transaction is done (freshMessageOf). */
export interface FreshRow {
	id: string;
	row: MessageRow;
	change: SyncOutboxRow;
	/** Its change's time (the outbox entry's, never past the stamp's). */
	at: number;
	/** The Blobs of its session its row may show. */
	blobs: ReadonlyMap<string, BlobRow>;
}

/** The first document of a message new to sync (every field at its position: the same whenever it is made). */
export function freshMessageOf({ id, row, change, at, blobs }: FreshRow, limit: number, random: RandomBytes): FreshMessage {
	const stamped = stampMessage(row.session_id, row.position, fieldsOfRow(row, blobEntries(row, blobs, limit)), undefined, { at, random });
	return { id, doc: stamped.doc, sums: stamped.sums, change };
}

/**
 * Takes the outbox entries `entries` in (read in this transaction); returns those taken (an answer
 * still streaming is left). `range`: the entries are all the outbox holds from its first key to its
 * last, so they leave it as one range. `defer`: messages new to sync are left to send as they are
 * (see FreshMessage).
 */
export async function stampOutbox(ctx: SyncContext, entries: readonly SyncOutboxRow[], range?: readonly [string, string], defer = false): Promise<Stamped> {
	const { db } = ctx;
	const done: string[] = [];
	const at = (row: SyncOutboxRow) => Math.min(row.at, ctx.now);
	// Sessions first: a message goes after its session's document.
	const sessions = new Map<string, { at: number; deleted: boolean }>();
	const messages: Array<{ sessionId: string; position: string; at: number; id: string; change: SyncOutboxRow }> = [];
	const scans = new Map<string, number>();
	const blobs: Array<{ sessionId: string; blobId: string; id: string }> = [];
	const prompts: Array<{ promptId: string; at: number }> = [];
	const assistants: Array<{ assistantId: string; at: number }> = [];
	for (const row of entries) {
		if (row.id.startsWith('deleted:')) {
			const sessionId = row.id.slice('deleted:'.length);
			sessions.set(sessionId, { at: at(row), deleted: true });
			done.push(row.id);
			continue;
		}
		if (row.id.startsWith('scan:')) {
			scans.set(row.id.slice('scan:'.length), at(row));
			continue;
		}
		const id = parseDocId(row.id);
		if (!id) {
			done.push(row.id);
			continue;
		}
		if (id.kind === 'session') {
			const known = sessions.get(id.session_id);
			sessions.set(id.session_id, { at: at(row), deleted: known?.deleted ?? false });
			done.push(row.id);
		} else if (id.kind === 'message') messages.push({ sessionId: id.session_id, position: id.position, at: at(row), id: row.id, change: row });
		else if (id.kind === 'prompt') {
			prompts.push({ promptId: id.prompt_id, at: at(row) });
			done.push(row.id);
		} else if (id.kind === 'assistant') {
			assistants.push({ assistantId: id.assistant_id, at: at(row) });
			done.push(row.id);
		} else blobs.push({ sessionId: id.session_id, blobId: id.blob_id, id: row.id });
	}
	if (scans.has('*')) {
		scans.delete('*');
		done.push('scan:*');
		for (const sessionId of await db.sessions.toCollection().primaryKeys()) if (!scans.has(sessionId)) scans.set(sessionId, ctx.now);
	}
	// A message's session has a document before the message does.
	const sessionIds = new Set([...sessions.keys(), ...messages.map((m) => m.sessionId), ...scans.keys()]);
	const [rows, known] = await Promise.all([db.sessions.bulkGet([...sessionIds]), db.sync_docs.bulkGet([...sessionIds].map(sessionDocId))]);
	const sessionRows = new Map([...sessionIds].map((id, i) => [id, rows[i]]));
	const sessionEntries = new Map([...sessionIds].map((id, i) => [id, known[i]]));
	// A session in "Recently deleted" keeps its changes in the outbox: taken in if it comes back (restored elsewhere), else dropped with it.
	const away = [...new Set([...sessionIds, ...blobs.map((b) => b.sessionId)])].filter((id) => !sessionRows.get(id));
	const trashed = new Set((await db.sync_trash.bulkGet(away)).flatMap((row) => (row ? [row.session_id] : [])));
	const waits = (sessionId: string) => trashed.has(sessionId) && !sessionRows.get(sessionId);
	const puts: SyncDocRow[] = [];
	const restored: string[] = [];
	const remove = (entry: SyncDocRow | undefined) => {
		const removal = removalOf(ctx, entry);
		if (removal) puts.push(removal);
	};
	for (const sessionId of sessionIds) {
		const change = sessions.get(sessionId);
		const entry = sessionEntries.get(sessionId);
		if (!change && entry?.doc) continue;
		const next = stampSessionEntry(ctx, sessionId, sessionRows.get(sessionId), entry, change?.at ?? ctx.now, change?.deleted ?? false);
		if (next && sessionRows.get(sessionId) && sessionDocOf(entry)?.fields.deleted_at != null) restored.push(sessionId);
		if (next) {
			sessionEntries.set(sessionId, next);
			puts.push(next);
		}
	}
	// Messages: each row's fields against the digests kept of them.
	const live = messages.filter((m) => sessionRows.get(m.sessionId));
	const [messageRows, messageEntries] = await Promise.all([readMessagesOf(db, live.map((m) => [m.sessionId, m.position])), readEntries(db, live.map((m) => m.id))]);
	const rowOf = new Map(messageRows.map((row) => [messageDocId(row.session_id, row.position), row]));
	const blobRows = await readSessionBlobRows(db, messageRows);
	for (const message of messages) if (!sessionRows.get(message.sessionId) && !waits(message.sessionId)) done.push(message.id);
	const fresh: FreshRow[] = [];
	live.forEach((message, index) => {
		const row = rowOf.get(message.id);
		const entry = messageEntries[index];
		if (row?.status === 'streaming') return;
		if (row && !entry && defer) {
			// New to sync: sent first, taken in once the server has it (see FreshMessage).
			fresh.push({ id: message.id, row, change: message.change, at: message.at, blobs: blobRows.get(row.session_id) ?? new Map() });
			return;
		}
		done.push(message.id);
		if (!row) {
			// Gone from a session that is still here: removed (Retry dropped it).
			remove(entry);
			return;
		}
		const next = stampRow(ctx, row, entry, blobRows.get(row.session_id) ?? new Map(), message.at);
		if (next) puts.push(next);
	});
	// Rows removed by key or range: each known message of the session whose row is gone.
	for (const [sessionId] of scans) {
		if (!waits(sessionId)) done.push(`scan:${sessionId}`);
		if (!sessionRows.get(sessionId)) continue;
		const [known, positions] = await Promise.all([
			db.sync_docs.where('session_id').equals(sessionId).filter((row) => row.kind === 'message' && !row.held).toArray(),
			db.messages.where('[session_id+position]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).keys()
		]);
		const here = new Set(positions.map((key) => (key as unknown as [string, string])[1]));
		for (const entry of known) {
			if (here.has(entry.position!) || puts.some((put) => put.id === entry.id)) continue;
			remove(entry);
		}
	}
	// Blobs new here: sent as documents of their own (within the limit).
	if (blobs.length) {
		const [blobHere, blobKnown] = await Promise.all([db.blobs.bulkGet(blobs.map((b): [string, string] => [b.sessionId, b.blobId])), db.sync_docs.bulkGet(blobs.map((b) => b.id))]);
		blobs.forEach((blob, index) => {
			const row = blobHere[index];
			if (!row && waits(blob.sessionId)) return;
			done.push(blob.id);
			if (!row || blobKnown[index] || row.data.size > ctx.limit) return;
			puts.push({ id: blobDocId(blob.sessionId, blob.blobId), kind: 'blob', session_id: blob.sessionId, rev: null, edit: nextEdit(ctx), dirty: 1, refused: 0 });
		});
	}
	await Promise.all([db.sync_docs.bulkPut(puts), removeTaken(ctx, entries, done, range)]);
	// Saved prompts and assistants: each edit taken into its own document (they belong to no session).
	await stampPrompts(ctx, prompts);
	await stampAssistants(ctx, assistants);
	if (restored.length) await applyHeld(ctx, restored);
	return { done, restored, puts, fresh, others: prompts.length + assistants.length + restored.length > 0, read: { messages: rowOf, blobs: blobRows } };
}

/** The outbox without the entries taken: as one range when all of `range` was taken (or with the few left put back). */
async function removeTaken(ctx: SyncContext, entries: readonly SyncOutboxRow[], done: readonly string[], range: readonly [string, string] | undefined): Promise<void> {
	const { db } = ctx;
	const taken = new Set(done);
	const left = entries.filter((row) => !taken.has(row.id));
	if (!range || left.length * 4 > entries.length) return void (await db.sync_outbox.bulkDelete([...taken]));
	// A scan of every session also takes the scans of single sessions, wherever they are.
	const read = new Set(entries.map((row) => row.id));
	const elsewhere = [...taken].filter((id) => !read.has(id));
	await Promise.all([db.sync_outbox.where(':id').between(range[0], range[1], true, true).delete(), elsewhere.length ? db.sync_outbox.bulkDelete(elsewhere) : undefined]);
	await db.sync_outbox.bulkPut(left);
}

/** The session's entry after this device's change (undefined: nothing to record). */
function stampSessionEntry(ctx: SyncContext, sessionId: string, row: SessionRow | undefined, entry: SyncDocRow | undefined, at: number, deleted: boolean): SyncDocRow | undefined {
	const previous = sessionDocOf(entry);
	// Purged, or deleted elsewhere and on its way to "Recently deleted": nothing of its row is an edit.
	if (previous?.purged_at != null || entry?.trash_later) return undefined;
	if (!row && !deleted) {
		// Removed by one of this device's own rules (a sweep, a repair): this device's copy only.
		if (!previous || entry!.dropped || previous.fields.deleted_at !== null) return undefined;
		return { ...entry!, dropped: 1 };
	}
	if (!row && !previous) return undefined;
	// A provider not in Settings that the document does not name either was chosen here (the
	// built-in model): it has no server, so no device matches another provider for it.
	const doc = stampSession(sessionId, row ?? null, previous, {
		at,
		random: ctx.random,
		deleted,
		providerRef: row ? providerRefOf(ctx, row.provider) ?? (previous && !sameProvider(ctx, previous, row.provider) ? null : undefined) : undefined,
		sameProvider: (doc, provider) => sameProvider(ctx, doc, provider)
	});
	const { dropped: _dropped, legacy: _legacy, refetch: _refetch, deleted_seen: seen, ...rest } = entry ?? ({} as Partial<SyncDocRow>);
	const unchanged = previous && !entry!.legacy && sameSession(doc, previous) && !entry!.dropped;
	if (unchanged) return undefined;
	return {
		...rest,
		id: sessionDocId(sessionId),
		kind: 'session',
		session_id: sessionId,
		rev: entry?.rev ?? null,
		edit: nextEdit(ctx),
		dirty: 1,
		refused: 0,
		doc,
		...(doc.fields.deleted_at !== null ? { deleted_seen: seen ?? ctx.now } : {})
	};
}

/** A message's entry after this device's edits to its row (undefined: nothing changed). */
function stampRow(ctx: SyncContext, row: MessageRow, entry: SyncDocRow | undefined, blobs: ReadonlyMap<string, BlobRow>, at: number): SyncDocRow | undefined {
	if (entry?.held && (entry.doc as { removed?: boolean } | undefined)?.removed) return undefined;
	const fields = fieldsOfRow(row, blobEntries(row, blobs, ctx.limit));
	const clocks = messageClocksOf(entry);
	const stamped = stampMessage(row.session_id, row.position, fields, clocks ? { clocks, sums: entry!.sums } : undefined, { at, random: ctx.random });
	if (!stamped.changed && entry) return undefined;
	const { held: _held, doc: _doc, legacy: _legacy, ...rest } = entry ?? ({} as Partial<SyncDocRow>);
	return {
		...rest,
		id: messageDocId(row.session_id, row.position),
		kind: 'message',
		session_id: row.session_id,
		position: row.position,
		rev: entry?.rev ?? null,
		edit: nextEdit(ctx),
		dirty: 1,
		refused: 0,
		clocks: { clock: stamped.doc.clock, clocks: stamped.doc.clocks },
		sums: stamped.sums
	};
}

/**
 * A removed message's entry: its removal to send, kept so that no copy brings it back (a copy
 * that never reached the server leaves only this small record there).
 */
function removalOf(ctx: SyncContext, entry: SyncDocRow | undefined): SyncDocRow | undefined {
	if (!entry || entry.kind !== 'message' || entry.held) return undefined;
	const clock = messageClocksOf(entry)?.clock ?? entry.position!;
	return {
		id: entry.id,
		kind: 'message',
		session_id: entry.session_id,
		position: entry.position,
		rev: entry.rev,
		edit: nextEdit(ctx),
		dirty: 1,
		refused: 0,
		held: 1,
		doc: removedMessage({ session_id: entry.session_id, position: entry.position!, clock })
	};
}
