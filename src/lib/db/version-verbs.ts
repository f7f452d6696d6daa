// Versions of a conversation: editing a message or regenerating an answer puts the rows after a
// place away as a version instead of deleting them, and switching versions chooses which one is
// on show there. Each row records the version it belongs to (`branch`) and the session which
// version is chosen at each place (`version_shown`); which rows are active follows from those
// (see conversation.ts), so every device that holds them shows the same. One transaction each.
import { positionAfter } from './position-clock';
import type { PalimpsestDb } from './database';
import { FIRST_VERSION, placeKey, type Place } from './conversation';
import { readSessionRows, writeConversation } from './conversation-verbs';
import { appendMessages, type NewMessage } from './message-verbs';
import type { MessageRow, SessionRow, VersionPoint } from './schema';

/** The conversation changed (another tab, a compaction) since the user chose the action. */
export class VersionConflictError extends Error {
	constructor(message = 'The conversation changed meanwhile. Try again.') {
		super(message);
		this.name = 'VersionConflictError';
	}
}

const COMPACTED_HERE = 'This part of the conversation was compacted since, so its versions can no longer be switched.';

/** The place's entry in `versions`, or the one a conversation without versions has: 1 of 1. */
export function versionPointOf(session: Pick<SessionRow, 'versions'>, after: number | null): VersionPoint {
	return session.versions?.find((point) => point.after === after) ?? { after, shown: 1, count: 1 };
}

/** The session's rows and the place `after` (null: the very start), checked as the verbs need them. */
async function readPlace(db: PalimpsestDb, sessionId: string, after: number | null) {
	const session = await db.sessions.get(sessionId);
	if (!session) throw new Error('This session no longer exists.');
	const rows = await readSessionRows(db, sessionId);
	const placeRow = after === null ? null : rows.find((row) => row.seq === after);
	if (placeRow === undefined || (placeRow && placeRow.active !== 1)) throw new VersionConflictError();
	// The rows on show after the place; refused where a compaction marker is among the active ones.
	const tail = rows.filter((row) => (after === null || row.seq > after) && !row.shelved);
	if (tail.some((row) => row.active === 1 && (row.compaction || row.kind === 'summary'))) throw new VersionConflictError(COMPACTED_HERE);
	return { session, rows, placeRow, key: placeKey(placeRow?.position ?? null) };
}

/**
 * Puts the rows after `after` away as the version on show there, and starts a new one with
 * `append` (an edited message; none for a regenerated answer, which the turn appends). `acted`
 * is the row the user acted on: it must still be among the active ones. Returns the place's new
 * entry and the rows appended.
 */
export async function startVersion(
	db: PalimpsestDb,
	sessionId: string,
	after: number | null,
	acted: number,
	append: NewMessage[] = [],
	now = Date.now()
): Promise<{ point: VersionPoint; rows: MessageRow[] }> {
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const { session, rows, placeRow, key } = await readPlace(db, sessionId, after);
		const tail = rows.filter((row) => (after === null || row.seq > after) && !row.shelved);
		if (!tail.some((row) => row.seq === acted && row.active === 1)) throw new VersionConflictError();
		const seqOf = new Map(rows.map((row) => [row.position, row.seq]));
		const ids = new Set(rows.flatMap((row) => (row.branch && placeKey(row.branch.at) === key ? [row.branch.id] : [])));
		const shownHere = session.version_shown?.[key];
		if (shownHere !== undefined) ids.add(shownHere);
		// What is on show here now is a version already (or becomes the first), and the new one comes after every other.
		const current = shownHere ?? ([...ids].sort().at(-1) || FIRST_VERSION);
		const latest = [...ids, current].sort().at(-1)!;
		const fresh = positionAfter(latest, now);
		// Rows on show that belong to no place here or deeper join the current version of this one.
		const placeSeq = placeRow?.seq ?? -Infinity;
		const outer = (row: MessageRow) => !row.branch || (row.branch.at === null ? placeRow !== null : (seqOf.get(row.branch.at) ?? -Infinity) < placeSeq);
		const tagged = rows.map((row) => (tail.includes(row) && outer(row) ? { ...row, branch: { at: placeRow?.position ?? null, id: current } } : row));
		await db.messages.bulkPut(tagged.filter((row, at) => row !== rows[at]));
		const shown = { ...session.version_shown, [key]: fresh };
		await db.sessions.update(sessionId, { version_shown: shown });
		const written = await writeConversation(db, { ...session, version_shown: shown }, tagged);
		const appended = append.length ? await appendMessages(db, sessionId, append, now) : [];
		return { point: versionPointOf(written.session, after), rows: appended };
	});
}

/** Shows version `version` at the place `after`: what is shown there now is put away in its stead. */
export async function showVersion(db: PalimpsestDb, sessionId: string, after: number | null, version: number): Promise<void> {
	await db.transaction('rw', db.sessions, db.messages, async () => {
		const session = await db.sessions.get(sessionId);
		if (!session) throw new Error('This session no longer exists.');
		const point = versionPointOf(session, after);
		if (version === point.shown) return;
		if (version < 1 || version > point.count) throw new VersionConflictError();
		const { rows, key } = await readPlace(db, sessionId, after);
		const written = await writeConversation(db, session, rows);
		const place: Place | undefined = written.conversation.places.find((entry) => entry.key === key);
		const id = place?.ids[version - 1];
		if (id === undefined) throw new VersionConflictError();
		const shown = { ...session.version_shown, [key]: id };
		await db.sessions.update(sessionId, { version_shown: shown });
		await writeConversation(db, { ...written.session, version_shown: shown }, written.rows);
	});
}
