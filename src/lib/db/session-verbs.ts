// Transactional verbs on session rows. Each verb is one short transaction over plain data.
import { cleanTitle } from './clean-title';
import type { PalimpsestDb } from './database';
import type { SessionRow } from './schema';

export async function insertSession(db: PalimpsestDb, row: SessionRow): Promise<void> {
	await db.sessions.add(row);
}

export function getSession(db: PalimpsestDb, id: string): Promise<SessionRow | undefined> {
	return db.sessions.get(id);
}

/** Not-archived sessions, pinned first, then most recently active. */
export async function listSessions(db: PalimpsestDb): Promise<SessionRow[]> {
	const rows = await db.sessions.where('archived').equals(0).toArray();
	return rows.sort(
		(a, b) => b.pinned - a.pinned || b.last_activity_at - a.last_activity_at
	);
}

/** Archived sessions, most recently active first. */
export async function listArchivedSessions(db: PalimpsestDb): Promise<SessionRow[]> {
	const rows = await db.sessions.where('archived').equals(1).toArray();
	return rows.sort((a, b) => b.last_activity_at - a.last_activity_at);
}

export async function updateSession(
	db: PalimpsestDb,
	id: string,
	changes: Partial<Omit<SessionRow, 'id'>>
): Promise<boolean> {
	return (await db.sessions.update(id, changes)) === 1;
}

/** Sets the title the user gave, without control characters (clean-title.ts); returns it as stored. */
export async function renameSession(db: PalimpsestDb, id: string, title: string): Promise<string> {
	const clean = cleanTitle(title).trim().slice(0, 200);
	if (!clean) throw new Error('A session title cannot be empty.');
	await updateSession(db, id, { title: clean, title_source: 'user' });
	return clean;
}

export async function setPinned(db: PalimpsestDb, id: string, pinned: boolean): Promise<void> {
	await updateSession(db, id, { pinned: pinned ? 1 : 0 });
}

/**
 * The session where the conversation of `id` goes on now: `id` itself, or, after compactions
 * that rotated it, its latest compression child. Inside a transaction, the answer holds for it.
 */
export async function findThreadHead(db: PalimpsestDb, id: string): Promise<string> {
	const seen = new Set<string>();
	for (let head = id; ; ) {
		seen.add(head);
		const session = await db.sessions.get(head);
		if (session?.end_reason !== 'compression') return head;
		const child = await db.sessions
			.where('parent_session_id')
			.equals(head)
			.filter((row) => row.parent_kind === 'compression')
			.first();
		if (!child || seen.has(child.id)) return head;
		head = child.id;
	}
}

/**
 * Sets the title a model wrote, if the session still has the title it had when the model was
 * asked and the user has not named it: a rename meanwhile (here, in another tab, or arriving by
 * sync) wins. Returns whether it was set.
 */
export async function setModelTitle(db: PalimpsestDb, id: string, asked: string, title: string, titledBy: SessionRow['titled_by']): Promise<boolean> {
	const clean = cleanTitle(title).trim().slice(0, 200);
	if (!clean) return false;
	return db.transaction('rw', db.sessions, async () => {
		const row = await db.sessions.get(id);
		if (!row || row.title_source === 'user' || row.title !== asked) return false;
		await db.sessions.update(id, { title: clean, title_source: 'message', titled_by: titledBy });
		return true;
	});
}
