// Reads sync's entries and a session's message rows by key where many lie side by side (a first
// sync's outbox, a page of arrivals): IndexedDB charges mostly by the request, so a run of
// neighbouring keys is read as one bounded range rather than one request a key. A range that
// turns out to hold far more than was asked stops at its bound, and what it missed is read a
// key at a time.
import type { PalimpsestDb } from '../db/database';
import type { MessageRow, SyncDocRow } from '../db/schema';

/** Keys in a group from which one range read beats one request each. */
const RUN = 4;
/** A range read takes at most this many rows per key asked (and this many more): a sparse range stops early. */
const SPREAD = 2;
const SLACK = 16;

/** The group an entry's id belongs to: a message's or Blob's session (its id up to the last colon), else the id itself. */
function groupOf(id: string): string {
	return id.startsWith('msg:') || id.startsWith('blob:') ? id.slice(0, id.lastIndexOf(':') + 1) : id;
}

/** Sync's entries at `ids` (in their order; undefined where none), the entries of one session's documents read as ranges. */
export async function readEntries(db: PalimpsestDb, ids: readonly string[]): Promise<(SyncDocRow | undefined)[]> {
	const groups = new Map<string, string[]>();
	for (const id of ids) (groups.get(groupOf(id)) ?? groups.set(groupOf(id), []).get(groupOf(id))!).push(id);
	const found = new Map<string, SyncDocRow>();
	const single: string[] = [];
	await Promise.all(
		[...groups.values()].map(async (members) => {
			if (members.length < RUN) return void single.push(...members);
			const sorted = [...members].sort();
			const limit = sorted.length * SPREAD + SLACK;
			const rows = await db.sync_docs.where(':id').between(sorted[0], sorted.at(-1)!, true, true).limit(limit).toArray();
			for (const row of rows) found.set(row.id, row);
			if (rows.length === limit) single.push(...sorted.filter((id) => !found.has(id)));
		})
	);
	if (single.length) (await db.sync_docs.bulkGet(single)).forEach((row) => row && found.set(row.id, row));
	return ids.map((id) => found.get(id));
}

/** The message rows of one session at `positions` (those here, in no set order), read as one range when there are many. */
export async function readMessagesAt(db: PalimpsestDb, sessionId: string, positions: readonly string[]): Promise<MessageRow[]> {
	if (!positions.length) return [];
	const index = db.messages.where('[session_id+position]');
	if (positions.length < RUN) return index.anyOf(positions.map((position) => [sessionId, position])).toArray();
	const sorted = [...positions].sort();
	const limit = sorted.length * SPREAD + SLACK;
	const rows = await index.between([sessionId, sorted[0]], [sessionId, sorted.at(-1)!], true, true).limit(limit).toArray();
	const wanted = new Set(sorted);
	const kept = rows.filter((row) => wanted.has(row.position));
	if (rows.length < limit) return kept;
	const seen = new Set(kept.map((row) => row.position));
	const rest = sorted.filter((position) => !seen.has(position));
	return [...kept, ...(rest.length ? await index.anyOf(rest.map((position) => [sessionId, position])).toArray() : [])];
}

/** The message rows at `keys` ([session, position], any sessions), each session's read as in readMessagesAt. */
export async function readMessagesOf(db: PalimpsestDb, keys: ReadonlyArray<readonly [string, string]>): Promise<MessageRow[]> {
	const bySession = new Map<string, string[]>();
	for (const [sessionId, position] of keys) (bySession.get(sessionId) ?? bySession.set(sessionId, []).get(sessionId)!).push(position);
	return (await Promise.all([...bySession].map(([sessionId, positions]) => readMessagesAt(db, sessionId, positions)))).flat();
}
