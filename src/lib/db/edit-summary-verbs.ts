// Edit summary, in one transaction: the edited text becomes a new summary row placed right
// after the original, which leaves the context but stays in the history, so the requests
// already sent with it can still be shown exactly. The edited row carries the marker.
import { Dexie, type PalimpsestDb } from './database';
import { CompactionRaceError } from './compaction-verbs';
import type { MarkerFacts, MessageRow } from './schema';
import { lastPositionOf } from './message-positions';
import { positionsAfter } from './position-clock';
import { ceilingAbove, keyBetween, orderOfRank, rankOf, rowRank } from './rank';
import { liveMarkers } from './live-markers';

/** The most characters a summary may be edited to (a summary is meant to be short). */
export const MAX_SUMMARY_CHARS = 100_000;

/**
 * An edit worked out from the summary it changes, inside the transaction: the new text, and the
 * marker's fact check as it then stands ("Add lost facts to summary" marks them added).
 */
export type SummaryEdit = (original: MessageRow, now: number) => { text: string; facts?: MarkerFacts };

function checkText(text: string): void {
	if (!text.trim()) throw new Error('A summary cannot be empty: undo the compaction instead.');
	if (text.length > MAX_SUMMARY_CHARS) throw new Error(`A summary may have at most ${MAX_SUMMARY_CHARS.toLocaleString('en')} characters.`);
}

export async function commitSummaryEdit(db: PalimpsestDb, sessionId: string, compactionId: string, edit: string | SummaryEdit, now: number): Promise<MessageRow> {
	if (typeof edit === 'string') checkText(edit);
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const session = await db.sessions.get(sessionId);
		const active = await db.messages.where('[session_id+active+seq]').between([sessionId, 1, Dexie.minKey], [sessionId, 1, Dexie.maxKey]).toArray();
		const markers = liveMarkers(active);
		const original = markers.find((row) => row.compaction!.id === compactionId);
		if (!session || !original || original.kind !== 'summary') throw new CompactionRaceError('This summary is no longer in the context; nothing changed.');
		if (original.native) throw new CompactionRaceError('The provider’s own summary is sent back as it came; it cannot be edited.');
		if (markers.at(-1) !== original) throw new CompactionRaceError('The conversation was compacted again meanwhile: only the latest summary can be edited. Nothing changed.');
		const above = (await db.messages.where('[session_id+seq]').between([sessionId, original.seq], [sessionId, Infinity], false, true).limit(1).toArray())[0];
		const high = above?.seq ?? session.next_seq;
		const seq = original.seq + (high - original.seq) / 2;
		if (!(seq > original.seq && seq < high)) throw new CompactionRaceError('There is no room left to place the edited summary.');
		const { text, facts } = typeof edit === 'string' ? { text: edit, facts: undefined } : edit(original, now);
		checkText(text);
		const { tokens: _tokens, encoding: _encoding, ...kept } = original;
		// A new row, so a new position: it syncs as a summary of its own, after the one it replaces.
		const lastPosition = await lastPositionOf(db, sessionId);
		const [position] = positionsAfter(lastPosition, 1, now);
		// Its rank puts it right after the original on every device, in the original's version.
		const rank = rankOf(position, keyBetween(orderOfRank(rowRank(original)), above ? orderOfRank(rowRank(above)) : ceilingAbove(lastPosition)));
		const edited: MessageRow = { ...kept, id: crypto.randomUUID(), seq, position, rank, content: text, compaction: { ...original.compaction!, edited_at: now, ...(facts ? { facts } : {}) } };
		// The original leaves the context under an id of its own, so undoing the compaction
		// later does not bring it back.
		await db.messages.put({ ...original, active: 0, compacted_by: edited.id });
		await db.messages.add(edited);
		await db.sessions.update(sessionId, { message_count: session.message_count + 1, last_activity_at: now });
		return edited;
	});
}
