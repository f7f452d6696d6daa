// Messages new to sync are sent before sync takes them in (see FreshMessage in dexie-stamp.ts).
// Once the server has one, its entry is written as its stamp and its marking would have left it,
// with the revision the server gave it, and its outbox entry leaves; unless that outbox entry
// was written again since it was read (its row was): then the entry says what was sent, and the
// change stays in the outbox, to be looked at again (and sent as an edit of it when it is one).
import type { PalimpsestDb } from '../db/database';
import type { SyncDocRow, SyncOutboxRow } from '../db/schema';
import { nextEdit, type SyncContext } from './dexie-context';
import { readEntries } from './dexie-read-runs';
import type { FreshMessage } from './dexie-stamp';
import type { PushResult } from './sync-store';

/** A message sent before it was taken in, and what the server made of it. */
export interface SentFresh {
	fresh: FreshMessage;
	result: PushResult;
}

type Merged = NonNullable<Extract<PushResult, { kind: 'pushed' }>['merged']>;

/** Whether an outbox entry is the one read before (entries written before this version carry no write mark: taken as written again). */
const sameChange = (read: SyncOutboxRow, now: SyncOutboxRow | undefined) => now !== undefined && read.write !== undefined && now.write === read.write && now.at === read.at;

/** Takes in messages the server now has (or refused); returns the documents the server held besides, merged with them, to apply. */
export async function takeInSent(ctx: SyncContext, sent: readonly SentFresh[]): Promise<Array<{ rev: string; doc: Merged }>> {
	const { db } = ctx;
	if (!sent.length) return [];
	const ids = sent.map(({ fresh }) => fresh.id);
	const [entries, outbox] = await Promise.all([readEntries(db, ids), readOutbox(db, ids)]);
	const puts: SyncDocRow[] = [];
	const taken = new Set<string>();
	const merged: Array<{ rev: string; doc: Merged }> = [];
	sent.forEach(({ fresh, result }, at) => {
		// Taken in meanwhile by other means: it goes from there (its outbox entry with it).
		if (entries[at]) return;
		const entry = { id: fresh.id, kind: 'message' as const, session_id: fresh.doc.session_id, position: fresh.doc.position, edit: nextEdit(ctx), clocks: { clock: fresh.doc.clock, clocks: fresh.doc.clocks }, sums: fresh.sums };
		if (result.kind === 'refused') puts.push({ ...entry, rev: null, dirty: 1, refused: 1 });
		else {
			puts.push({ ...entry, rev: result.rev, dirty: 0, refused: 0 });
			if (result.merged && result.rev) merged.push({ rev: result.rev, doc: result.merged });
		}
		if (sameChange(fresh.change, outbox.rows.get(fresh.id))) taken.add(fresh.id);
	});
	const whole = outbox.range && [...outbox.rows.keys()].every((id) => taken.has(id));
	await Promise.all([db.sync_docs.bulkPut(puts), whole ? db.sync_outbox.where(':id').between(outbox.range![0], outbox.range![1], true, true).delete() : db.sync_outbox.bulkDelete([...taken])]);
	return merged;
}

/**
 * The outbox entries at `ids`, read as one range from the first to the last when few others lie
 * between (`range`: every entry of that range is among `rows`), else one at a time.
 */
async function readOutbox(db: PalimpsestDb, ids: readonly string[]): Promise<{ rows: Map<string, SyncOutboxRow>; range: [string, string] | null }> {
	const sorted = [...ids].sort();
	const limit = sorted.length * 2 + 16;
	const span = await db.sync_outbox.where(':id').between(sorted[0], sorted.at(-1)!, true, true).limit(limit).toArray();
	if (span.length < limit) return { rows: new Map(span.map((row) => [row.id, row])), range: [sorted[0], sorted.at(-1)!] };
	const rows = await db.sync_outbox.bulkGet(sorted);
	return { rows: new Map(rows.flatMap((row) => (row ? [[row.id, row] as const] : []))), range: null };
}
