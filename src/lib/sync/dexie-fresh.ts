// Messages new to sync are sent before sync takes them in (see FreshMessage in dexie-stamp.ts).
// Once the server has one, its entry is written as its stamp and its marking would have left it,
// with the revision the server gave it, and its outbox entry leaves; unless its row was written
// since it was read: then the entry says what was sent, and the change stays in the outbox, to
// be looked at again (and sent as an edit of it when it is one).
import type { PalimpsestDb } from '../db/database';
import type { SyncDocRow } from '../db/schema';
import { nextEdit, type SyncContext } from './dexie-context';
import { readEntries, readMessagesOf } from './dexie-read-runs';
import type { FreshMessage } from './dexie-stamp';
import { messageDocId } from './document-ids';
import type { PushResult } from './sync-store';

/** A message sent before it was taken in, and what the server made of it. */
export interface SentFresh {
	fresh: FreshMessage;
	result: PushResult;
}

/** Takes in messages the server now has (or refused); returns the documents the server held besides, merged with them, to apply. */
export async function takeInSent(ctx: SyncContext, sent: readonly SentFresh[]): Promise<Array<{ rev: string; doc: NonNullable<Extract<PushResult, { kind: 'pushed' }>['merged']> }>> {
	const { db } = ctx;
	if (!sent.length) return [];
	const [entries, rows] = await Promise.all([readEntries(db, sent.map(({ fresh }) => fresh.id)), readMessagesOf(db, sent.map(({ fresh }) => [fresh.doc.session_id, fresh.doc.position]))]);
	const rowOf = new Map(rows.map((row) => [messageDocId(row.session_id, row.position), row]));
	const puts: SyncDocRow[] = [];
	const taken: string[] = [];
	const merged: Array<{ rev: string; doc: NonNullable<Extract<PushResult, { kind: 'pushed' }>['merged']> }> = [];
	sent.forEach(({ fresh, result }, at) => {
		// Taken in meanwhile by other means: it goes from there (its outbox entry with it).
		if (entries[at]) return;
		// The row as it was read (a row written again with the same content counts as changed: it is looked at again).
		const row = rowOf.get(fresh.id);
		const unchanged = row !== undefined && JSON.stringify(row) === JSON.stringify(fresh.row);
		const entry = { id: fresh.id, kind: 'message' as const, session_id: fresh.doc.session_id, position: fresh.doc.position, edit: nextEdit(ctx), clocks: { clock: fresh.doc.clock, clocks: fresh.doc.clocks }, sums: fresh.sums };
		if (result.kind === 'refused') puts.push({ ...entry, rev: null, dirty: 1, refused: 1 });
		else {
			puts.push({ ...entry, rev: result.rev, dirty: 0, refused: 0 });
			if (result.merged && result.rev) merged.push({ rev: result.rev, doc: result.merged });
		}
		if (unchanged) taken.push(fresh.id);
	});
	await Promise.all([db.sync_docs.bulkPut(puts), removeFromOutbox(db, taken)]);
	return merged;
}

/** Removes outbox entries `ids`: as one range when nothing else lies between the first and the last. */
async function removeFromOutbox(db: PalimpsestDb, ids: readonly string[]): Promise<void> {
	if (!ids.length) return;
	const sorted = [...ids].sort();
	const range = db.sync_outbox.where(':id').between(sorted[0], sorted.at(-1)!, true, true);
	const within = (await range.primaryKeys()) as string[];
	const removing = new Set(sorted);
	if (within.every((id) => removing.has(id))) await range.delete();
	else await db.sync_outbox.bulkDelete(sorted);
}
