// The sync store over the profile's database. This device's changes come from the outbox, written
// in the same transaction as each change (db/sync-outbox.ts) and taken into sync's documents
// before anything is sent or applied (dexie-stamp.ts); what arrives is merged and written in one
// transaction with the checkpoint (dexie-apply.ts). The rows are a cache of the documents: the
// conversation shown is derived from them alike on every device (db/conversation.ts).
import { Dexie, type PalimpsestDb } from '../db/database';
import type { SyncDocRow } from '../db/schema';
import { attachmentLimitBytes, MAX_ATTACHMENT_MB } from './attachment-limit';
import { applyDocs } from './dexie-apply';
import { keptBlobs } from './dexie-blobs';
import { dirtyAfter, PendingBatch, pendingDocsOf } from './dexie-pending';
import { readEntries } from './dexie-read-runs';
import { nextEdit, readEdits, syncTables, writeEdits, type LocalProvider, type SyncContext } from './dexie-context';
import { freshMessageOf, stampOutbox, type FreshMessage } from './dexie-stamp';
import { takeInSent } from './dexie-fresh';
import { blobDocId, messageDocId, promptDocId } from './document-ids';
import { KEEP_DELETED_DAYS } from './keep-deleted-days';
import { maintainStore, purgeExpired, type Upkeep } from './dexie-maintain';
import type { MessageDoc } from './message-document';
import { cryptoRandom, type RandomBytes } from './position';
import type { SessionDoc } from './session-document';
import { assistantDocId, type AssistantDoc } from './assistant-document';
import { isAssistantDoc, isMessageDoc, isPromptDoc } from './merge-docs';
import type { PromptDoc } from './prompt-document';
import { markWrite } from '../db/sync-outbox';
import type { ApplyOptions, PendingCursor, PendingDoc, PendingPage, PulledDoc, PushResult, Replication, SyncStore } from './sync-store';

const CHECKPOINT = 'checkpoint';
const REPLICATION = 'replication';
const DEVICE = 'device';
/** Outbox entries taken in per transaction (each short, so the app's writes never wait long). */
const STAMP_CHUNK = 500;
/** Pending entries read per request. */
const PENDING_PAGE = 256;

export interface SyncStoreOptions {
	now?: () => number;
	random?: RandomBytes;
	/** The profile sessions that arrive are filed under. */
	profile?: string;
	/** Days a session deleted elsewhere stays in "Recently deleted" (0: for ever), read at each look. */
	keepDeletedDays?: () => number | Promise<number>;
	/** Bytes: the largest Blob sent or taken, read at each look. */
	attachmentLimit?: () => number | Promise<number>;
	/** This device's providers, to match a session's with (by server). */
	providers?: () => readonly LocalProvider[] | Promise<readonly LocalProvider[]>;
	/** Sessions some tab works on now. */
	busy?: () => ReadonlySet<string> | Promise<ReadonlySet<string>>;
	/** Outbox entries taken in per transaction (STAMP_CHUNK by default). */
	stampChunk?: number;
}

export function createSyncStore(db: PalimpsestDb, options: SyncStoreOptions = {}): DexieSyncStore {
	return new DexieSyncStore(db, options);
}

export class DexieSyncStore implements SyncStore {
	readonly #db: PalimpsestDb;
	readonly #options: SyncStoreOptions;
	readonly #now: () => number;
	readonly #random: RandomBytes;
	/** Messages new to sync handed out to send, by id, until the server's answer takes them in (see FreshMessage). */
	readonly #fresh = new Map<string, FreshMessage>();
	/**
	 * Messages new to sync that a read made and its batch had no room for, kept for the read that
	 * goes on from that batch's cursor (so their rows are not read again); `last`: the outbox key
	 * the read that made them went to.
	 */
	#carried: { cursor: PendingCursor; fresh: FreshMessage[]; last: string } | null = null;

	constructor(db: PalimpsestDb, options: SyncStoreOptions) {
		this.#db = db;
		this.#options = options;
		this.#now = options.now ?? Date.now;
		this.#random = options.random ?? cryptoRandom;
	}

	/** Runs `work` in one sync transaction with what it shares read first. */
	async #transaction<T>(work: (ctx: SyncContext) => Promise<T>): Promise<T> {
		const db = this.#db;
		const [limit, providers, busy] = await Promise.all([
			this.#options.attachmentLimit?.() ?? attachmentLimitBytes(MAX_ATTACHMENT_MB),
			this.#options.providers?.() ?? [],
			this.#options.busy?.() ?? new Set<string>()
		]);
		return db.transaction('rw', syncTables(db), async () => {
			const edits = await readEdits(db);
			const ctx: SyncContext = { db, now: this.#now(), random: this.#random, profile: this.#options.profile ?? db.name.replace(/^palimpsest-/, ''), limit, providers, busy, edits, editsBefore: edits };
			const result = await work(ctx);
			await writeEdits(ctx);
			return result;
		});
	}

	async deviceId(): Promise<string> {
		const row = await this.#db.sync_meta.get(DEVICE);
		if (typeof row?.value === 'string') return row.value;
		const id = crypto.randomUUID();
		await this.#db.sync_meta.put({ key: DEVICE, value: id });
		return id;
	}

	async replication(): Promise<Replication | null> {
		const row = await this.#db.sync_meta.get(REPLICATION);
		const value = row?.value as Replication | undefined;
		return value && typeof value.url === 'string' && typeof value.id === 'string' ? value : null;
	}

	async startReplication(replication: Replication): Promise<void> {
		const db = this.#db;
		await this.#transaction(async (ctx) => {
			await db.sync_meta.put({ key: REPLICATION, value: replication });
			await db.sync_meta.delete(CHECKPOINT);
			// What this device knows goes to that database again; its revisions there are not these.
			await db.sync_docs.toCollection().modify((entry: SyncDocRow) => {
				entry.rev = null;
				entry.dirty = entry.purge ? 0 : 1;
				entry.refused = 0;
				entry.edit = nextEdit(ctx);
				delete entry.losers;
			});
			await db.sync_docs.filter((entry) => entry.purge === 1).delete();
		});
		// Every row is taken in again (a profile that had rows before sync kept an outbox has none for them).
		await this.#enqueueEverything();
	}

	/**
	 * An outbox entry for every session, message, Blob, saved prompt and assistant here that has
	 * none yet and is unknown to sync (sync's entries were all marked to send), in slices.
	 */
	async #enqueueEverything(): Promise<void> {
		const db = this.#db;
		const at = this.#now();
		const [sessions, prompts, assistants, queued, known] = await Promise.all([
			db.sessions.toCollection().primaryKeys(),
			db.prompts.toCollection().primaryKeys(),
			db.assistants.toCollection().primaryKeys(),
			db.sync_outbox.toCollection().primaryKeys(),
			db.sync_docs.toCollection().primaryKeys()
		]);
		const taken = new Set<string>([...(queued as string[]), ...(known as string[])]);
		const missing = (ids: string[]) => markWrite(ids.filter((id) => !taken.has(id)).map((id) => ({ id, at })));
		await db.sync_outbox.bulkPut(missing([...sessions.map((id) => `session:${id}`), ...prompts.map((id) => promptDocId(id)), ...assistants.map((id) => assistantDocId(id))]));
		for (let start = 0; start < sessions.length; start += 200) {
			const slice = sessions.slice(start, start + 200);
			const ranges = slice.map((id): [unknown, unknown] => [[id, Dexie.minKey], [id, Dexie.maxKey]]);
			const [positions, blobs] = await Promise.all([
				db.messages.where('[session_id+position]').inAnyRange(ranges).keys(),
				db.blobs.where('[session_id+id]').inAnyRange(ranges).primaryKeys()
			]);
			await db.sync_outbox.bulkPut(
				missing([
					...positions.map((key) => {
						const [sessionId, position] = key as unknown as [string, string];
						return messageDocId(sessionId, position);
					}),
					...blobs.map(([sessionId, id]) => blobDocId(sessionId, id))
				])
			);
		}
	}

	/**
	 * Takes in the outbox entries after key `after` (at most `limit` of them) in one transaction;
	 * returns the last key it read (null when there were none) and, when `since` is given and
	 * nothing but this stamp made entries to send past edit `since`, the documents it made to send.
	 */
	async #stampNext(after: string | null, limit: number, since?: PendingCursor): Promise<{ last: string; docs: PendingDoc[] | null; fresh: FreshMessage[] } | null> {
		const db = this.#db;
		const stamped = await this.#transaction(async (ctx) => {
			const entries = await (after === null ? db.sync_outbox.toCollection() : db.sync_outbox.where(':id').above(after)).limit(limit).toArray();
			if (!entries.length) return null;
			const alone = since !== undefined && (await dirtyAfter(db, since.edit).first()) === undefined;
			const before = ctx.edits;
			const stamped = await stampOutbox(ctx, entries, [entries[0].id, entries.at(-1)!.id], since !== undefined);
			const last = entries.at(-1)!.id;
			if (!alone || stamped.others) return { last, docs: null, fresh: stamped.fresh, limit: ctx.limit };
			const made = [...new Map(stamped.puts.filter((row) => row.dirty === 1 && row.edit > before).map((row) => [row.id, row])).values()].sort((a, b) => a.edit - b.edit);
			return { last, docs: await pendingDocsOf(db, made, ctx.limit, stamped.read), fresh: stamped.fresh, limit: ctx.limit };
		});
		// The documents of messages new to sync are made once the transaction is done, so the next can start meanwhile.
		return stamped && { ...stamped, fresh: stamped.fresh.map((row) => freshMessageOf(row, stamped.limit, this.#random)) };
	}

	/** Takes the whole outbox into sync's documents, a slice per transaction. */
	async #stampAll(): Promise<void> {
		// Looked at first without holding the tables: most of the time (a device receiving) it is empty.
		if (!(await this.#db.sync_outbox.count())) return;
		let after: string | null = null;
		while ((after = (await this.#stampNext(after, this.#options.stampChunk ?? STAMP_CHUNK))?.last ?? null) !== null);
	}

	/** About how many documents are to send: this device's changes not yet taken in, and those taken in and not yet sent. */
	async pendingCount(): Promise<number> {
		const [changes, unsent] = await Promise.all([this.#db.sync_outbox.count(), dirtyAfter(this.#db, null).filter((row) => !row.refused).count()]);
		return changes + unsent;
	}

	async pending(limitBytes: number, after: PendingCursor = { edit: null, outbox: null }): Promise<PendingPage> {
		const db = this.#db;
		const limit = await (this.#options.attachmentLimit?.() ?? attachmentLimitBytes(MAX_ATTACHMENT_MB));
		const carried = this.#carried?.cursor === after ? this.#carried : null;
		this.#carried = null;
		const batch = new PendingBatch(limitBytes, { ...after });
		const { cursor } = batch;
		const page = () => ({ docs: batch.docs, after: cursor });
		// Messages new to sync, as they are, while they fit; the rest are kept for the next read, whose cursor stays before them.
		const addFresh = (fresh: readonly FreshMessage[], last: string, before: string | null): boolean => {
			for (const [at, message] of fresh.entries()) {
				if (!batch.add([{ kind: 'message', id: message.id, edit: 0, rev: null, doc: message.doc }])) {
					cursor.outbox = at ? fresh[at - 1].id : before;
					this.#carried = { cursor, fresh: fresh.slice(at), last };
					return false;
				}
				this.#fresh.set(message.id, message);
			}
			cursor.outbox = last;
			return true;
		};
		const readDirty = () =>
			db.transaction('r', [db.sync_docs, db.messages, db.blobs], async () => {
				for (;;) {
					const rows: SyncDocRow[] = await dirtyAfter(db, cursor.edit).limit(PENDING_PAGE).toArray();
					if (!batch.add(await pendingDocsOf(db, rows.filter((row) => !row.refused), limit))) return false;
					if (rows.length) cursor.edit = rows.at(-1)!.edit;
					if (rows.length < PENDING_PAGE) return true;
				}
			});
		// What was taken in and not yet sent first, then what the read before kept; then the outbox,
		// a slice at a time, until the batch is full.
		if (!(await readDirty())) {
			if (carried) this.#carried = { ...carried, cursor };
			return page();
		}
		if (carried && !addFresh(carried.fresh, carried.last, cursor.outbox)) return page();
		for (;;) {
			const stamped = await this.#stampNext(cursor.outbox, this.#options.stampChunk ?? STAMP_CHUNK, cursor);
			if (!stamped) return page();
			const before = cursor.outbox;
			cursor.outbox = stamped.last;
			// Its documents straight into the batch (or read, when something else made entries to send meanwhile)…
			if (!(stamped.docs ? batch.add(stamped.docs) : await readDirty())) {
				if (stamped.fresh.length) {
					cursor.outbox = before;
					this.#carried = { cursor, fresh: stamped.fresh, last: stamped.last };
				}
				return page();
			}
			// …then the messages new to sync, as they are.
			if (!addFresh(stamped.fresh, stamped.last, before)) return page();
		}
	}

	async markPushed(all: readonly PushResult[]): Promise<void> {
		const merged: PulledDoc[] = [];
		// Messages sent before they were taken in (edit 0) are taken in now; the rest are marked.
		const arrived = all.flatMap((result) => {
			const fresh = result.edit === 0 ? this.#fresh.get(result.id) : undefined;
			return fresh ? [{ fresh, result }] : [];
		});
		const results = all.filter((result) => result.edit !== 0);
		await this.#transaction(async (ctx) => {
			const db = this.#db;
			for (const { doc, rev } of await takeInSent(ctx, arrived)) merged.push(pulledOf(doc, rev));
			const ids = [...new Set(results.map((result) => result.id))];
			const rows = new Map(ids.map((id, i) => [id, i] as const));
			const found = await readEntries(db, ids);
			const puts = new Map<string, SyncDocRow>();
			const sent = new Set<string>();
			const deletes: string[] = [];
			for (const result of results) {
				const row = puts.get(result.id) ?? found[rows.get(result.id)!];
				if (!row) continue;
				const current = row.edit === result.edit;
				if (result.kind === 'refused') {
					if (current) puts.set(row.id, { ...row, refused: 1 });
					continue;
				}
				if (row.purge) {
					if (current) deletes.push(row.id);
					continue;
				}
				if (result.removed !== undefined) {
					// A losing branch deleted; the document itself is sent apart.
					const losers = (row.losers ?? []).filter((rev) => rev !== result.removed);
					const { losers: _all, ...bare } = row;
					puts.set(row.id, losers.length ? { ...bare, losers } : bare);
					continue;
				}
				const rev = result.rev ?? row.rev;
				puts.set(row.id, { ...row, rev });
				if (current) sent.add(row.id);
				// What the server held besides: merged here as if it had arrived (what differs stays to send).
				if (result.merged && rev) merged.push(pulledOf(result.merged, rev));
			}
			// Done with a document once it went at its current edit and no losing branch is left to delete.
			for (const [id, row] of puts) if (sent.has(id) && !row.losers?.length) puts.set(id, { ...row, dirty: 0 });
			await Promise.all([db.sync_docs.bulkPut([...puts.values()]), db.sync_docs.bulkDelete(deletes)]);
			if (merged.length) await applyDocs(ctx, merged, {}, new Map());
		});
		for (const { fresh } of arrived) this.#fresh.delete(fresh.id);
	}

	async applyPulled(docs: readonly PulledDoc[], checkpoint: string | null, options: ApplyOptions = {}): Promise<{ deleted: number }> {
		// Nothing arrived (a page of this device's own writes coming back): only the checkpoint moves.
		if (!docs.length) {
			if (checkpoint !== null) await this.#db.sync_meta.put({ key: CHECKPOINT, value: checkpoint });
			return { deleted: 0 };
		}
		// Checked before the transaction: reading a Blob's bytes awaits, which would end it.
		const kept = await keptBlobs(this.#db, docs);
		await this.#stampAll();
		return this.#transaction(async (ctx) => {
			// This device's latest changes first, so what arrives merges with them rather than over them.
			const pending = await this.#db.sync_outbox.toArray();
			if (pending.length) await stampOutbox(ctx, pending);
			const applied = await applyDocs(ctx, docs, options, kept);
			if (checkpoint !== null) await this.#db.sync_meta.put({ key: CHECKPOINT, value: checkpoint });
			return applied;
		});
	}

	async checkpoint(): Promise<string | null> {
		const row = await this.#db.sync_meta.get(CHECKPOINT);
		return typeof row?.value === 'string' ? row.value : null;
	}

	async sessionsToRead(): Promise<string[]> {
		return (await this.#db.sync_docs.where('id').startsWith('session:').filter((row) => row.refetch === 1).toArray()).map((row) => row.session_id);
	}

	/** Marks a session's documents read again (after `sessionsToRead`). */
	async sessionRead(sessionId: string): Promise<void> {
		const entry = await this.#db.sync_docs.get(`session:${sessionId}`);
		if (entry?.refetch) {
			const { refetch: _, ...rest } = entry;
			await this.#db.sync_docs.put(rest);
		}
	}

	async readBlob(sessionId: string, blobId: string): Promise<Blob | undefined> {
		return (await this.#db.blobs.get([sessionId, blobId]))?.data;
	}

	async wantedBlobs(docs: readonly PulledDoc[]): Promise<boolean[]> {
		const limit = await (this.#options.attachmentLimit?.() ?? attachmentLimitBytes(MAX_ATTACHMENT_MB));
		const keys = docs.map((doc): [string, string] | null => (doc.kind === 'blob' ? [doc.session_id, doc.blob_id] : null));
		const here = await this.#db.blobs.bulkGet(keys.filter((key): key is [string, string] => key !== null));
		let at = 0;
		return docs.map((doc) => {
			if (doc.kind !== 'blob') return doc.kind === 'message' && (doc.legacy?.attached?.length ?? 0) > 0;
			const present = here[at++] !== undefined;
			return !present && doc.size <= limit;
		});
	}

	async knownRevisions(ids: readonly string[], revs: readonly string[]): Promise<boolean[]> {
		const entries = await readEntries(this.#db, ids);
		return entries.map((entry, at) => entry !== undefined && entry.rev === revs[at] && !entry.purge);
	}

	/** Housekeeping once a pass (see dexie-maintain.ts). */
	maintain(): Promise<void> {
		return maintainStore(this.#upkeep());
	}

	/**
	 * Sessions in "Recently deleted" for longer than it keeps them are deleted for good: here at
	 * once, everywhere once sync sends it (the app's maintenance runs this too, so sync need not be on).
	 */
	purgeExpired(): Promise<void> {
		return purgeExpired(this.#upkeep());
	}

	#upkeep(): Upkeep {
		return { db: this.#db, now: this.#now, keepDeletedDays: this.#options.keepDeletedDays ?? (() => KEEP_DELETED_DAYS), transaction: (work) => this.#transaction(work) };
	}
}

/** A document the server held besides this device's, as if it had arrived. */
function pulledOf(doc: SessionDoc | MessageDoc | PromptDoc | AssistantDoc, rev: string): PulledDoc {
	if (isPromptDoc(doc)) return { kind: 'prompt', rev, doc };
	if (isAssistantDoc(doc)) return { kind: 'assistant', rev, doc };
	return isMessageDoc(doc) ? { kind: 'message', rev, doc } : { kind: 'session', rev, doc };
}
