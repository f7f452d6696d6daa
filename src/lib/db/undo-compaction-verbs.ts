// Undoing the latest compaction of a session, in one transaction: the rows it removed return to
// the context, the rows it added leave it, and its marker row stays where it was as a note that
// says it was undone (its summary readable, no longer sent). Nothing is deleted.
import { Dexie, type PalimpsestDb } from './database';
import { CompactionRaceError } from './compaction-verbs';
import { copyImages } from './message-verbs';
import type { MessageRow } from './schema';
import { lastPositionOf } from './message-positions';
import { positionsAfter } from './position-clock';
import { sameOrigin } from './session-links';
import { deriveConversation } from './conversation';
import { orderKeyOf } from './rank';
import { liveMarkers } from './live-markers';
import { readSessionRows, writeConversation } from './conversation-verbs';

/** Continue in the earlier session refused: the two sessions are of different origins. */
export class SessionOriginError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'SessionOriginError';
	}
}

/** What undoing a compaction changes, read from the session's rows (inside a transaction). */
async function planUndo(db: PalimpsestDb, sessionId: string, compactionId: string) {
	const range = (active: 0 | 1) => db.messages.where('[session_id+active+seq]').between([sessionId, active, Dexie.minKey], [sessionId, active, Dexie.maxKey]);
	const active = await range(1).toArray();
	const markers = liveMarkers(active);
	const marker = markers.find((row) => row.compaction!.id === compactionId);
	if (!marker) throw new CompactionRaceError('This compaction is no longer in effect (it was undone, or folded into a later one); nothing changed.');
	if (marker.compaction!.old_session_id) throw new CompactionRaceError('This compaction continued in a new session: continue in the earlier session instead.');
	if (markers.at(-1) !== marker) throw new CompactionRaceError('The conversation was compacted again meanwhile: only the latest compaction can be undone. Nothing changed.');
	// Rows a compaction adds besides its marker (pruned-output stubs, provider items) were
	// written with it, at fractional seqs.
	const added = active.filter((row) => row !== marker && !row.compaction && row.created_at === marker.created_at && (!Number.isInteger(row.seq) || orderKeyOf(row.rank) !== undefined));
	const removed = await range(0).filter((row) => row.compacted_by === compactionId).toArray();
	return { active, marker, added, removed };
}

/**
 * The rows undoing changes, as they are after it: what it removed no longer covered, what it
 * added retired, its marker a note. Which of them are active then follows (see conversation.ts):
 * a removed row on a version not on show stays put away.
 */
function undoneRows(plan: Awaited<ReturnType<typeof planUndo>>, compactionId: string, now: number): MessageRow[] {
	return [
		...plan.removed.map((row) => ({ ...row, compacted_by: null })),
		...plan.added.map((row) => ({ ...row, retired_by: compactionId })),
		{ ...plan.marker, kind: 'notice' as const, compaction: { ...plan.marker.compaction!, undone_at: now } }
	];
}

/** The session's rows (in seq order) with `changed` in place of theirs, and what is derived from them. */
async function withUndone(db: PalimpsestDb, sessionId: string, changed: readonly MessageRow[]) {
	const bySeq = new Map(changed.map((row) => [row.seq, row]));
	return (await readSessionRows(db, sessionId)).map((row) => bySeq.get(row.seq) ?? row);
}

export async function commitUndoCompaction(db: PalimpsestDb, sessionId: string, compactionId: string, now: number): Promise<{ restored: number }> {
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const plan = await planUndo(db, sessionId, compactionId);
		const changed = undoneRows(plan, compactionId, now);
		await db.messages.bulkPut(changed);
		const session = await db.sessions.get(sessionId);
		if (session) await writeConversation(db, session, await withUndone(db, sessionId, changed));
		await db.sessions.update(sessionId, { last_activity_at: now });
		return { restored: plan.removed.length };
	});
}

/** The session's active rows as they would be after undoing the compaction, oldest first; nothing is written. */
export async function readUndoneRows(db: PalimpsestDb, sessionId: string, compactionId: string): Promise<MessageRow[]> {
	return db.transaction('r', db.sessions, db.messages, async () => {
		const plan = await planUndo(db, sessionId, compactionId);
		const [session, rows] = await Promise.all([db.sessions.get(sessionId), withUndone(db, sessionId, undoneRows(plan, compactionId, Date.now()))]);
		const { rows: states } = deriveConversation(session?.version_shown, rows);
		return rows.flatMap((row, at) => (states[at].active === 1 ? [{ ...row, active: 1 as const }] : []));
	});
}

/**
 * Undoing a compaction that continued in a new session: the earlier session is reopened with
 * what was said in the later one since (appended), and the later one ends, kept as a branch
 * of it (so the thread goes on in the earlier one). Returns the earlier session's id. Only
 * between sessions of one origin (both made here, or both brought by the same import): an
 * imported file could otherwise name one of your sessions, or another import's, as the earlier
 * one, and have what was said here appended to it.
 */
export async function commitContinueEarlier(db: PalimpsestDb, childId: string, compactionId: string, now: number): Promise<{ parentId: string; sessionKey: string }> {
	return db.transaction('rw', [db.sessions, db.messages, db.blobs], async () => {
		const child = await db.sessions.get(childId);
		const active = await db.messages.where('[session_id+active+seq]').between([childId, 1, Dexie.minKey], [childId, 1, Dexie.maxKey]).toArray();
		const markers = liveMarkers(active);
		const marker = markers.find((row) => row.compaction!.id === compactionId);
		const parentId = marker?.compaction?.old_session_id;
		const parent = parentId ? await db.sessions.get(parentId) : undefined;
		if (!child || child.ended_at !== null || !marker || !parent) throw new CompactionRaceError('This session no longer continues the earlier one; nothing changed.');
		if (!sameOrigin(child, parent)) {
			throw new SessionOriginError(
				'This session and the earlier one did not come from the same place (one was imported, or they came with different imports), so what was said here cannot be added to it. Nothing changed; the conversation goes on here.'
			);
		}
		if (markers.at(-1) !== marker) throw new CompactionRaceError('The conversation was compacted again meanwhile: only the latest compaction can be undone. Nothing changed.');
		if (parent.end_reason !== 'compression') throw new CompactionRaceError('The earlier session is no longer waiting to be continued; nothing changed.');
		// What was said since the compaction goes on in the earlier session, after its last row.
		const since = active.filter((row) => row.created_at > marker.compaction!.at && !row.compaction && row.kind !== 'summary');
		const positions = positionsAfter(await lastPositionOf(db, parent.id), since.length, now);
		const rows: MessageRow[] = since.map(({ sent: _sent, branch: _branch, ...row }, index) => ({
			...row,
			session_id: parent.id,
			seq: parent.next_seq + index,
			position: positions[index],
			rank: positions[index],
			...(parent.tip ? { branch: parent.tip } : {})
		}));
		await db.messages.bulkAdd(rows);
		await copyImages(db, child.id, parent.id, rows);
		await db.messages.put({ ...marker, kind: 'notice', compaction: { ...marker.compaction!, undone_at: now } });
		await db.sessions.update(parent.id, {
			ended_at: null,
			end_reason: null,
			next_seq: parent.next_seq + rows.length,
			message_count: parent.message_count + rows.length,
			last_activity_at: now
		});
		await db.sessions.update(child.id, { ended_at: now, end_reason: 'compression_undone', parent_kind: 'branch' });
		return { parentId: parent.id, sessionKey: child.session_key };
	});
}
