// Versions of a conversation: editing a message or regenerating an answer puts the rows after a
// place away as a version (inactive, tagged with the place and its number) instead of deleting
// them, and switching versions swaps which rows are active there. One transaction each.
import { Dexie, type PalimpsestDb } from './database';
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

function withPoint(session: SessionRow, point: VersionPoint): VersionPoint[] {
	return [...(session.versions ?? []).filter((p) => p.after !== point.after), point];
}

function activeRows(db: PalimpsestDb, sessionId: string): Promise<MessageRow[]> {
	return db.messages.where('[session_id+active+seq]').between([sessionId, 1, Dexie.minKey], [sessionId, 1, Dexie.maxKey]).toArray();
}

/** The active rows after the place; refused if the place is gone or a compaction marker is among them. */
async function tailAfter(db: PalimpsestDb, sessionId: string, after: number | null): Promise<MessageRow[]> {
	const rows = await activeRows(db, sessionId);
	if (after !== null && !rows.some((row) => row.seq === after)) throw new VersionConflictError();
	const tail = rows.filter((row) => after === null || row.seq > after);
	if (tail.some((row) => row.compaction || row.kind === 'summary')) throw new VersionConflictError(COMPACTED_HERE);
	return tail;
}

function shelve(rows: MessageRow[], after: number | null, version: number): MessageRow[] {
	return rows.map((row) => ({ ...row, active: 0, shelved: { after, version } }));
}

/**
 * Puts the rows after `after` away as the version on show there, and starts a new one with
 * `append` (an edited message; none for a regenerated answer, which the turn appends). `acted`
 * is the row the user acted on: it must still be among them. Returns the place's new entry
 * and the rows appended.
 */
export async function startVersion(
	db: PalimpsestDb,
	sessionId: string,
	after: number | null,
	acted: number,
	append: NewMessage[] = []
): Promise<{ point: VersionPoint; rows: MessageRow[] }> {
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const session = await db.sessions.get(sessionId);
		if (!session) throw new Error('This session no longer exists.');
		const tail = await tailAfter(db, sessionId, after);
		if (!tail.some((row) => row.seq === acted)) throw new VersionConflictError();
		const point = versionPointOf(session, after);
		await db.messages.bulkPut(shelve(tail, after, point.shown));
		const next: VersionPoint = { after, shown: point.count + 1, count: point.count + 1 };
		await db.sessions.update(sessionId, { versions: withPoint(session, next) });
		const rows = append.length ? await appendMessages(db, sessionId, append) : [];
		return { point: next, rows };
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
		const tail = await tailAfter(db, sessionId, after);
		const restored = await db.messages
			.where('[session_id+active+seq]')
			.between([sessionId, 0, Dexie.minKey], [sessionId, 0, Dexie.maxKey])
			.filter((row) => row.shelved?.after === after && row.shelved.version === version)
			.toArray();
		await db.messages.bulkPut([
			...shelve(tail, after, point.shown),
			...restored.map(({ shelved: _shelved, ...row }): MessageRow => ({ ...row, active: 1 }))
		]);
		await db.sessions.update(sessionId, { versions: withPoint(session, { ...point, shown: version }) });
	});
}
