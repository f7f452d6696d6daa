// The sync store over the profile's database. This device's edits are found by comparing its
// rows with what sync last knew of them (sync_docs): a session whose synced fields changed is
// stamped with new clocks; a session whose row is gone was deleted here; a message position
// not yet known is a new message; a known one whose row is gone was removed here. Only
// sessions whose row changed since their messages were last read are read again. What
// arrives is written in one transaction with the checkpoint, straight into the tables: no
// hook fires for it (hooks fire on the device where the action happened). A deleted session's
// record is purged once the retention period has passed (see purgeCutoff).
import { insertArrivals, type ArrivedMessage } from '../db/arrival-verbs';
import { Dexie, type PalimpsestDb } from '../db/database';
import { blobsNoLongerShown } from '../db/message-verbs';
import { NO_COMPACTION_STATE, type MessageRow, type SessionRow, type SyncDocRow } from '../db/schema';
import { attachmentLimitBytes, MAX_ATTACHMENT_MB } from './attachment-limit';
import { blobEntries, keptBlobs, noteBlobsNotSynced, putArrivedBlobs, readBlobRows } from './dexie-blobs';
import { messageDocId, sessionDocId } from './document-ids';
import { mergeSessionDocs } from './merge-session';
import { messageDocFromRow, type BlobEntry, type MessageDoc } from './message-document';
import { KEEP_DELETED_DAYS } from './keep-deleted-days';
import { pendingBytes } from './pending-body';
import { cryptoRandom, type RandomBytes } from './position';
import { sameSession } from './same-session';
import { sessionRowFields, stampSession, type SessionDoc } from './session-document';
import type { PendingDoc, PulledDoc, PushResult, SyncStore } from './sync-store';

const CHECKPOINT = 'checkpoint';
const EDITS = 'edits';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Pending rows read per request. */
const PENDING_PAGE = 256;

export interface SyncStoreOptions {
	now?: () => number;
	random?: RandomBytes;
	/** The profile sessions that arrive are filed under. */
	profile?: string;
	/** Days a deleted session's sync record is kept, read at each look (0: for ever). */
	keepDeletedDays?: () => number | Promise<number>;
	/** Bytes: the largest Blob sent or taken as an attachment, read at each look. */
	attachmentLimit?: () => number | Promise<number>;
}

/** What a session's row looked like when its messages were last read: a change means they are read again. */
const seenOf = (row: SessionRow) => `${row.message_count}:${row.next_seq}:${row.last_activity_at}`;

export function createSyncStore(db: PalimpsestDb, options: SyncStoreOptions = {}): DexieSyncStore {
	return new DexieSyncStore(db, options);
}

export class DexieSyncStore implements SyncStore {
	readonly #db: PalimpsestDb;
	readonly #now: () => number;
	readonly #random: RandomBytes;
	readonly #profile: string;
	readonly #keepDeletedDays: () => number | Promise<number>;
	readonly #attachmentLimit: () => number | Promise<number>;

	constructor(db: PalimpsestDb, options: SyncStoreOptions) {
		this.#db = db;
		this.#now = options.now ?? Date.now;
		this.#random = options.random ?? cryptoRandom;
		this.#profile = options.profile ?? db.name.replace(/^palimpsest-/, '');
		this.#keepDeletedDays = options.keepDeletedDays ?? (() => KEEP_DELETED_DAYS);
		this.#attachmentLimit = options.attachmentLimit ?? (() => attachmentLimitBytes(MAX_ATTACHMENT_MB));
	}

	async readBlob(sessionId: string, id: string): Promise<Blob | undefined> {
		return (await this.#db.blobs.get([sessionId, id]))?.data;
	}

	async wantedBlobs(docs: readonly PulledDoc[]): Promise<BlobEntry[][]> {
		const limit = await this.#attachmentLimit();
		const candidates = docs.map((pulled) => (pulled.kind === 'message' ? (pulled.doc.blobs ?? []).filter((entry) => pulled.attached?.includes(entry.id) && entry.size <= limit) : []));
		const keys = docs.flatMap((pulled, at) => (pulled.kind === 'message' ? candidates[at].map((entry): [string, string] => [pulled.doc.session_id, entry.id]) : []));
		const here = new Set((await this.#db.blobs.bulkGet(keys)).flatMap((row) => (row ? [`${row.session_id}\n${row.id}`] : [])));
		return docs.map((pulled, at) => (pulled.kind === 'message' ? candidates[at].filter((entry) => !here.has(`${pulled.doc.session_id}\n${entry.id}`)) : []));
	}

	/** What is marked to send; this device's latest edits are looked for by pendingCount(), which a push calls first. */
	async pending(limitBytes: number): Promise<PendingDoc[]> {
		const batch: PendingDoc[] = [];
		let bytes = 0;
		// Oldest edit first, read in pages (a cursor would wait for each row); a refused one waits for its next edit.
		let after: number | null = null;
		for (;;) {
			const range = after === null ? this.#dirty() : this.#db.sync_docs.where('[dirty+edit]').between([1, after], [1, Dexie.maxKey], false, true);
			const rows: SyncDocRow[] = await range.limit(PENDING_PAGE).toArray();
			for (const row of rows) {
				after = row.edit;
				if (row.refused) continue;
				const entry = pendingOf(row);
				const size = pendingBytes(entry);
				if (batch.length && bytes + size > limitBytes) return batch;
				bytes += size;
				batch.push(entry);
			}
			if (rows.length < PENDING_PAGE) return batch;
		}
	}

	/** Looks for this device's edits since the last look (once a push, not once a batch), then counts what is marked. */
	async pendingCount(): Promise<number> {
		await this.refresh();
		return this.#dirty().filter((row) => !row.refused).count();
	}

	async checkpoint(): Promise<string | null> {
		const row = await this.#db.sync_meta.get(CHECKPOINT);
		return typeof row?.value === 'string' ? row.value : null;
	}

	async markPushed(results: readonly PushResult[]): Promise<void> {
		const db = this.#db;
		await db.transaction('rw', [db.sessions, db.sync_docs, db.sync_meta], async () => {
			const rows = await db.sync_docs.bulkGet(results.map((result) => result.id));
			let edits = await this.#edits();
			// Written together at the end: a batch of thousands is two requests, not thousands of round trips.
			const puts: SyncDocRow[] = [];
			const deletes: string[] = [];
			for (const [i, result] of results.entries()) {
				const row = rows[i];
				if (!row) continue;
				const current = row.edit === result.edit;
				if (result.kind === 'refused') {
					if (current) puts.push({ ...row, refused: 1 });
					continue;
				}
				const rev = result.rev ?? row.rev;
				if (row.kind === 'message-removed' || row.kind === 'session-purged') {
					if (current) deletes.push(row.id);
					continue;
				}
				if (row.kind === 'session' && result.merged) {
					const value = row.doc as SessionDoc;
					const merged = mergeSessionDocs(value, result.merged);
					const changed = !sameSession(merged, value);
					await db.sync_docs.put({ ...row, rev, doc: merged, edit: changed ? ++edits : row.edit, dirty: sameSession(merged, result.merged) ? 0 : 1 });
					// The row takes what the other device changed, so the next look finds no edit here.
					if (changed) await this.#writeSessionRow(merged);
					continue;
				}
				// A sent message keeps only its id and revision: its row here is the copy.
				const done = current && row.kind === 'message' ? { doc: undefined } : {};
				puts.push({ ...row, ...done, rev, dirty: current ? 0 : row.dirty });
			}
			await Promise.all([db.sync_docs.bulkPut(puts), db.sync_docs.bulkDelete(deletes)]);
			await this.#setEdits(edits);
		});
	}

	async applyPulled(docs: readonly PulledDoc[], checkpoint: string): Promise<void> {
		const db = this.#db;
		// Sessions first: a message in the same batch as its session's deletion is dropped too.
		const order = { session: 0, 'session-purged': 0, 'message-removed': 1, message: 2 } as const;
		const sorted = [...docs].sort((a, b) => order[a.kind] - order[b.kind]);
		// Read before the transaction (checking bytes awaits the Blob, which would end it).
		const [limit, kept] = await Promise.all([this.#attachmentLimit(), keptBlobs(sorted)]);
		await db.transaction('rw', [db.sessions, db.messages, db.blobs, db.sync_docs, db.sync_meta], async () => {
			let edits = await this.#edits();
			// What the page meets here, read at once: one request after another, not one round trip per document.
			const sessionIds = [...new Set(sorted.map(sessionIdOf))];
			const messageIds = sorted.flatMap((pulled) => (pulled.kind === 'message' ? [messageDocId(pulled.doc.session_id, pulled.doc.position)] : []));
			const [knownRows, sessionRows, knownMessages] = await Promise.all([db.sync_docs.bulkGet(sessionIds.map(sessionDocId)), db.sessions.bulkGet(sessionIds), db.sync_docs.bulkGet(messageIds)]);
			const known = new Map(sessionIds.map((id, i) => [id, knownRows[i]]));
			const rows = new Map(sessionIds.map((id, i) => [id, sessionRows[i]]));
			// A message waits for its session only while the session is unknown here or has no row.
			const waiting = sorted.flatMap((pulled) => (pulled.kind === 'session' && (!known.get(pulled.doc.session_id)?.doc || !rows.get(pulled.doc.session_id)) ? [pulled.doc.session_id] : []));
			const heldRows = waiting.length ? await db.sync_docs.where('session_id').anyOf(waiting).filter((row) => row.kind === 'message-held').toArray() : [];
			const revs = new Map(messageIds.map((id, i) => [id, knownMessages[i]]));
			const held = new Map<string, SyncDocRow[]>();
			for (const row of heldRows) list(held, row.session_id).push(row);
			// Deleted here since sync last looked: the deletion is this device's edit and wins over
			// what arrives (else a copy from another device would bring the session back).
			for (const sessionId of sessionIds) {
				const entry = known.get(sessionId);
				if (entry?.kind !== 'session' || (entry.doc as SessionDoc | undefined)?.deleted_at !== null || rows.get(sessionId)) continue;
				const marked = await this.#markDeletedHere(entry, edits);
				edits = marked.edits;
				known.set(sessionId, marked.entry);
			}
			// Writes nothing in the page reads back are issued without waiting for each.
			const writes: Promise<unknown>[] = [];
			const flush = async () => void (await Promise.all(writes.splice(0)));
			const arrived = new Map<string, Array<{ doc: MessageDoc; rev: string; attached?: readonly string[] }>>();
			for (const pulled of sorted) {
				if (pulled.kind === 'session-purged') {
					// Another device purged the record of a session deleted long ago: the deletion holds here too.
					await flush();
					const id = sessionDocId(pulled.session_id);
					const knownDoc = known.get(pulled.session_id)?.doc as SessionDoc | undefined;
					if (knownDoc?.deleted_at == null && rows.get(pulled.session_id)) edits = await this.#removeSessionHere(pulled.session_id, edits);
					await db.sync_docs.delete(id);
					known.set(pulled.session_id, undefined);
					rows.set(pulled.session_id, undefined);
				} else if (pulled.kind === 'session') {
					const sessionId = pulled.doc.session_id;
					const entry = known.get(sessionId);
					const merged = entry?.doc ? mergeSessionDocs(entry.doc as SessionDoc, pulled.doc) : pulled.doc;
					const changed = !entry?.doc || !sameSession(merged, entry.doc as SessionDoc);
					const row = merged.deleted_at === null ? sessionRowOf(merged, rows.get(sessionId), this.#profile) : null;
					if (row) writes.push(db.sessions.put(row));
					const next: SyncDocRow = {
						id: sessionDocId(sessionId),
						kind: 'session',
						session_id: sessionId,
						rev: pulled.rev,
						edit: changed ? ++edits : entry!.edit,
						// What differs from the server's copy (an edit here it has not seen) stays to send.
						dirty: sameSession(merged, pulled.doc) ? 0 : 1,
						refused: changed ? 0 : (entry?.refused ?? 0),
						doc: merged,
						...(row ? { seen: seenOf(row) } : {})
					};
					writes.push(db.sync_docs.put(next));
					known.set(sessionId, next);
					rows.set(sessionId, row ?? undefined);
					if (merged.deleted_at !== null) {
						await flush();
						edits = await this.#removeSessionHere(sessionId, edits);
						rows.set(sessionId, undefined);
					} else for (const row of held.get(sessionId) ?? []) list(arrived, sessionId).push({ doc: row.doc as MessageDoc, rev: row.rev ?? '' });
					held.delete(sessionId);
				} else if (pulled.kind === 'message-removed') {
					await flush();
					await this.#removeMessageHere(pulled.session_id, pulled.position);
					await db.sync_docs.delete(messageDocId(pulled.session_id, pulled.position));
				} else {
					const { doc, rev, attached } = pulled;
					const id = messageDocId(doc.session_id, doc.position);
					// Already here at this revision (this device's own, come back through the feed): nothing to do.
					const mine = revs.get(id);
					if (mine?.kind === 'message' && mine.rev === rev) continue;
					const session = known.get(doc.session_id);
					const deleted = (session?.doc as SessionDoc | undefined)?.deleted_at != null;
					// A late append to a deleted session: never shown, and removed from the server.
					if (deleted) writes.push(db.sync_docs.put({ id, kind: 'message-removed', session_id: doc.session_id, position: doc.position, rev, edit: ++edits, dirty: 1, refused: 0 }));
					else {
						// Its Blobs in the same transaction as the message (one held for its session waits with them).
						writes.push(putArrivedBlobs(db, kept.get(id) ?? []));
						if (!session || !rows.get(doc.session_id)) {
							writes.push(db.sync_docs.put({ id, kind: 'message-held', session_id: doc.session_id, position: doc.position, rev, edit: 0, dirty: 0, refused: 0, doc }));
						} else list(arrived, doc.session_id).push({ doc, rev, attached });
					}
				}
			}
			await flush();
			if (arrived.size) await this.#storeArrived(arrived, known, limit);
			await db.sync_meta.put({ key: CHECKPOINT, value: checkpoint });
			await this.#setEdits(edits);
		});
	}

	/**
	 * Finds this device's edits since the last look and marks them to send, in one transaction:
	 * sessions stamped where their synced fields changed, deleted where their row is gone, and
	 * the messages of every session whose row changed since its messages were last read.
	 */
	async refresh(): Promise<void> {
		const db = this.#db;
		const cutoff = this.#purgeCutoff(await this.#keepDeletedDays());
		const limit = await this.#attachmentLimit();
		await db.transaction('rw', [db.sessions, db.messages, db.blobs, db.sync_docs, db.sync_meta], async () => {
			let edits = await this.#edits();
			const [rows, known] = await Promise.all([db.sessions.toArray(), db.sync_docs.where('id').startsWith('session:').toArray()]);
			const knownById = new Map(known.map((row) => [row.session_id, row]));
			const here = new Set(rows.map((row) => row.id));
			// The sessions to look at again, then all their messages read at once (IndexedDB
			// answers one request after another without waiting for this thread in between).
			const changed: Array<{ row: SessionRow; entry: SyncDocRow | undefined; edited: boolean; doc: SessionDoc }> = [];
			for (const row of rows) {
				const entry = knownById.get(row.id);
				const previous = entry?.doc as SessionDoc | undefined;
				if (previous?.deleted_at != null) continue;
				const stamped = stampSession(row, previous, this.#now(), this.#random);
				const edited = !previous || !sameSession(stamped, previous);
				if (!edited && entry?.seen === seenOf(row)) continue;
				changed.push({ row, entry, edited, doc: edited ? stamped : previous! });
			}
			const reads = await Promise.all(changed.map(({ row }) => this.#readMessages(row.id, limit)));
			const puts: SyncDocRow[] = [];
			const deletes: string[] = [];
			for (const [i, { row, entry, edited, doc }] of changed.entries()) {
				const read = reads[i];
				// The session before its messages: another device then knows it when they arrive.
				puts.push({
					id: sessionDocId(row.id),
					kind: 'session',
					session_id: row.id,
					rev: entry?.rev ?? null,
					edit: edited ? ++edits : entry!.edit,
					dirty: edited ? 1 : entry!.dirty,
					refused: edited ? 0 : entry!.refused,
					doc,
					// An answer still streaming is read again once it is final.
					...(read.complete ? { seen: seenOf(row) } : {})
				});
				for (const fresh of read.fresh) puts.push({ ...fresh, edit: ++edits });
				// Removed here (Retry drops a failed answer): removed on the server too, if it got there.
				for (const gone of read.gone) {
					if (gone.dirty && gone.rev === null) deletes.push(gone.id);
					else puts.push({ ...gone, kind: 'message-removed', doc: undefined, edit: ++edits, dirty: 1, refused: 0 });
				}
			}
			await Promise.all([db.sync_docs.bulkPut(puts), db.sync_docs.bulkDelete(deletes)]);
			// Sessions deleted here: their document keeps the deletion, their messages leave the server.
			for (const entry of known) {
				if (here.has(entry.session_id) || (entry.doc as SessionDoc).deleted_at !== null) continue;
				edits = (await this.#markDeletedHere(entry, edits)).edits;
			}
			// Deleted long enough ago: the record goes, here and (with `_deleted`) on the server.
			for (const entry of known) {
				const deletedAt = (entry.doc as SessionDoc).deleted_at;
				if (entry.kind !== 'session' || deletedAt === null || deletedAt >= cutoff) continue;
				if (entry.rev === null) await db.sync_docs.delete(entry.id);
				else await db.sync_docs.put({ ...entry, kind: 'session-purged', edit: ++edits, dirty: 1, refused: 0 });
			}
			await this.#setEdits(edits);
		});
	}

	/**
	 * Deletions before this time have their sync records purged. Safe only because every device
	 * has had the whole retention period to pull the deletion: a device away for longer may still
	 * send an old copy of such a session, which then comes back as new.
	 */
	#purgeCutoff(days: number): number {
		return Number.isFinite(days) && days > 0 ? this.#now() - days * DAY_MS : -Infinity;
	}

	/** Marks new messages of a session to send and removed ones to remove; `complete`: none was left streaming. */
	/**
	 * A session's messages sync does not know yet (to send), and the ones it knows whose row is
	 * gone (to remove); `complete`: none was left streaming. Reads only.
	 */
	async #readMessages(sessionId: string, limit: number): Promise<{ fresh: Array<Omit<SyncDocRow, 'edit'>>; gone: SyncDocRow[]; complete: boolean }> {
		const db = this.#db;
		const [all, known] = await Promise.all([
			db.messages.where('[session_id+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).toArray(),
			db.sync_docs.where('session_id').equals(sessionId).toArray()
		]);
		const knownIds = new Set(known.map((row) => row.id));
		const fresh: Array<Omit<SyncDocRow, 'edit'>> = [];
		let complete = true;
		const rows: MessageRow[] = [];
		for (const row of all) {
			if (!row.position || knownIds.has(messageDocId(sessionId, row.position))) continue;
			if (row.status === 'streaming') complete = false;
			else rows.push(row);
		}
		const blobs = await readBlobRows(db, sessionId, rows);
		for (const row of rows) {
			const covers = row.compaction ? all.filter((other) => other.compacted_by === row.compaction!.id && other.position).map((other) => other.position!) : undefined;
			const doc = messageDocFromRow(row, row.position, covers?.length ? covers.filter((p) => p < row.position!) : undefined);
			const entries = blobEntries(row, blobs, limit);
			if (entries.length) doc.blobs = entries;
			fresh.push({ id: messageDocId(sessionId, row.position), kind: 'message', session_id: sessionId, position: row.position, rev: null, dirty: 1, refused: 0, doc });
		}
		const present = new Set(all.flatMap((row) => (row.position ? [messageDocId(sessionId, row.position)] : [])));
		const gone = known.filter((entry) => entry.kind === 'message' && !present.has(entry.id));
		return { fresh, gone, complete };
	}

	/** A session deleted (here or on another device): its rows go, without hooks; its messages leave the server. */
	async #removeSessionHere(sessionId: string, edits: number): Promise<number> {
		const db = this.#db;
		await Promise.all([
			db.sessions.delete(sessionId),
			db.messages.where('[session_id+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).delete(),
			db.blobs.where('[session_id+id]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).delete()
		]);
		for (const entry of await db.sync_docs.where('session_id').equals(sessionId).toArray()) {
			if (entry.kind === 'session' || entry.kind === 'session-purged' || entry.kind === 'message-removed') continue;
			// One written here and never sent is not on the server; any other (sent, received or held) is removed there too.
			if (entry.kind === 'message' && entry.dirty && entry.rev === null) await db.sync_docs.delete(entry.id);
			else await db.sync_docs.put({ ...entry, kind: 'message-removed', doc: undefined, edit: ++edits, dirty: 1, refused: 0 });
		}
		return edits;
	}

	/** A session whose row is gone here: its document keeps the deletion (to send), its messages leave the server. */
	async #markDeletedHere(entry: SyncDocRow, edits: number): Promise<{ entry: SyncDocRow; edits: number }> {
		const marked: SyncDocRow = { ...entry, doc: { ...(entry.doc as SessionDoc), deleted_at: this.#now() }, edit: edits + 1, dirty: 1, refused: 0 };
		await this.#db.sync_docs.put(marked);
		return { entry: marked, edits: await this.#removeSessionHere(entry.session_id, edits + 1) };
	}

	/** A message removed on another device: its row goes here, and the Blobs it refers to with it. */
	async #removeMessageHere(sessionId: string, position: string): Promise<void> {
		const db = this.#db;
		const rows = await db.messages.where('[session_id+position]').equals([sessionId, position]).toArray();
		await db.messages.bulkDelete(rows.map((row): [string, number] => [row.session_id, row.seq]));
		await db.blobs.bulkDelete((await blobsNoLongerShown(db, sessionId, rows)).map((id): [string, string] => [sessionId, id]));
	}

	/** Stores messages that arrived for known sessions, each in its place; a compaction folds what it covers. */
	async #storeArrived(arrived: Map<string, Array<{ doc: MessageDoc; rev: string; attached?: readonly string[] }>>, known: Map<string, SyncDocRow | undefined>, limit: number): Promise<void> {
		const db = this.#db;
		const stored = await insertArrivals(db, new Map([...arrived].map(([sessionId, messages]) => [sessionId, messages.map(({ doc }): ArrivedMessage => ({ ...doc.message, position: doc.position }))])));
		const entries: SyncDocRow[] = [];
		for (const [sessionId, messages] of arrived) {
			for (const { doc, rev } of messages) entries.push({ id: messageDocId(sessionId, doc.position), kind: 'message', session_id: sessionId, position: doc.position, rev, edit: 0, dirty: 0, refused: 0 });
			// The session's row now says what its messages look like here: nothing of this is an edit to send.
			const entry = known.get(sessionId);
			if (entry) entries.push({ ...entry, seen: seenOf(stored.get(sessionId)!.session) });
		}
		await db.sync_docs.bulkPut(entries);
		for (const [sessionId, messages] of arrived) {
			for (const { doc } of messages) {
				if (!doc.covers?.length) continue;
				const folded = doc.message.compaction?.id ?? doc.message.id;
				const covered = await db.messages.where('[session_id+position]').anyOf(doc.covers.map((position) => [sessionId, position])).toArray();
				await db.messages.bulkPut(covered.map((row) => ({ ...row, active: 0 as const, compacted_by: folded })));
			}
			await noteBlobsNotSynced(db, sessionId, messages, limit);
		}
	}

	/** Writes the synced fields of `doc` to the session's row, making the row if this device has none. */
	async #writeSessionRow(doc: SessionDoc): Promise<SessionRow> {
		const next = sessionRowOf(doc, await this.#db.sessions.get(doc.session_id), this.#profile);
		await this.#db.sessions.put(next);
		return next;
	}

	#dirty() {
		return this.#db.sync_docs.where('[dirty+edit]').between([1, Dexie.minKey], [1, Dexie.maxKey]);
	}

	async #edits(): Promise<number> {
		const row = await this.#db.sync_meta.get(EDITS);
		return typeof row?.value === 'number' ? row.value : 0;
	}

	async #setEdits(edits: number): Promise<void> {
		await this.#db.sync_meta.put({ key: EDITS, value: edits });
	}
}

/** The session's row with the synced fields of `doc`; a new row (filed under `profile`) when there is none. */
function sessionRowOf(doc: SessionDoc, row: SessionRow | undefined, profile: string): SessionRow {
	const fields = sessionRowFields(doc);
	return row ? { ...row, ...fields } : { ...fields, profile, message_count: 0, token_estimate: 0, next_seq: 0, compaction: { ...NO_COMPACTION_STATE } };
}

function sessionIdOf(pulled: PulledDoc): string {
	return pulled.kind === 'session' || pulled.kind === 'message' ? pulled.doc.session_id : pulled.session_id;
}

function list<K, V>(map: Map<K, V[]>, key: K): V[] {
	let items = map.get(key);
	if (!items) map.set(key, (items = []));
	return items;
}

/** What a marked document sends. */
function pendingOf(row: SyncDocRow): PendingDoc {
	if (row.kind === 'session') return { kind: 'session', id: row.id, edit: row.edit, rev: row.rev, doc: row.doc as SessionDoc };
	if (row.kind === 'message') return { kind: 'message', id: row.id, edit: row.edit, rev: null, doc: row.doc as MessageDoc };
	if (row.kind === 'session-purged') return { kind: 'session-purged', id: row.id, edit: row.edit, rev: row.rev };
	return { kind: 'message-removed', id: row.id, edit: row.edit, rev: row.rev, session_id: row.session_id, position: row.position! };
}
