// The sync store's housekeeping, once a pass (and, for purging, in the app's maintenance too):
// sessions deleted elsewhere while a tab worked on them go to "Recently deleted" once it is done,
// arrivals that waited for a tab are written, and sessions kept in "Recently deleted" past their
// time are deleted for good.
import type { PalimpsestDb } from '../db/database';
import { moveSessionToTrash } from '../db/trash-verbs';
import { applyHeld } from './dexie-apply';
import { nextEdit, sessionDocOf, type SyncContext } from './dexie-context';
import { purgeSession } from './session-document';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What housekeeping needs of the store: its database, clock, setting and sync transactions. */
export interface Upkeep {
	db: PalimpsestDb;
	now: () => number;
	/** Days "Recently deleted" keeps a session (0: for ever). */
	keepDeletedDays: () => number | Promise<number>;
	transaction: <T>(work: (ctx: SyncContext) => Promise<T>) => Promise<T>;
}

/** Moves sessions whose deletion waited for a tab, and writes arrivals that waited for one; then purges. */
export async function maintainStore(upkeep: Upkeep): Promise<void> {
	const { db, transaction } = upkeep;
	const later = await db.sync_docs.where('id').startsWith('session:').filter((row) => row.trash_later === 1).toArray();
	if (later.length) {
		await transaction(async (ctx) => {
			for (const entry of later) {
				if (ctx.busy.has(entry.session_id)) continue;
				const current = await db.sync_docs.get(entry.id);
				if (!current?.trash_later) continue;
				const { trash_later: _, ...rest } = current;
				const doc = sessionDocOf(current);
				if (doc?.purged_at === null && doc.fields.deleted_at !== null) await moveSessionToTrash(db, entry.session_id, ctx.now);
				await db.sync_docs.put(rest);
			}
		});
	}
	// Arrivals that waited for a tab's work on their session (or for it to come back) are written now.
	const held = await db.sync_docs.where('held').equals(1).filter((row) => !(row.doc as { removed?: boolean } | undefined)?.removed).toArray();
	const live = new Set((await db.sessions.bulkGet([...new Set(held.map((row) => row.session_id))])).flatMap((row) => (row ? [row.id] : [])));
	if (live.size) await transaction((ctx) => applyHeld(ctx, live));
	await purgeExpired(upkeep);
}

/**
 * Sessions in "Recently deleted" for longer than it keeps them are deleted for good: here at
 * once, everywhere once sync sends it.
 */
export async function purgeExpired({ db, now, keepDeletedDays, transaction }: Upkeep): Promise<void> {
	const days = await keepDeletedDays();
	if (!(Number.isFinite(days) && days > 0)) return;
	const cutoff = now() - days * DAY_MS;
	const expired = await db.sync_docs
		.where('id')
		.startsWith('session:')
		.filter((row) => row.deleted_seen !== undefined && row.deleted_seen < cutoff)
		.toArray();
	for (const entry of expired) {
		await transaction(async (ctx) => {
			// Read again: sync in another context (the worker, the page's maintenance) may have moved it on.
			const current = await db.sync_docs.get(entry.id);
			const doc = sessionDocOf(current);
			if (!current || !doc || doc.purged_at !== null || doc.fields.deleted_at === null || !(current.deleted_seen! < cutoff)) return;
			const { deleted_seen: _seen, ...rest } = current;
			await db.sync_docs.put({ ...rest, doc: purgeSession(doc, ctx.now), edit: nextEdit(ctx), dirty: 1, refused: 0 });
			await db.sync_trash.delete(entry.session_id);
			// Its messages and Blobs leave the server; those never sent there are simply forgotten.
			const own = await db.sync_docs.where('session_id').equals(entry.session_id).filter((row) => row.kind !== 'session').toArray();
			await db.sync_docs.bulkDelete(own.filter((row) => row.rev === null).map((row) => row.id));
			await db.sync_docs.bulkPut(own.filter((row) => row.rev !== null).map((row) => ({ id: row.id, kind: row.kind, session_id: row.session_id, rev: row.rev, edit: nextEdit(ctx), dirty: 1 as const, refused: 0 as const, purge: 1 as const })));
		});
	}
}
