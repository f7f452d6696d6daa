// Transactional verbs on messages: appends keep the session's counters in the same
// transaction, checkpoints are short single-row writes.
import { cleanTitle } from './clean-title';
import { Dexie, type PalimpsestDb } from './database';
import type { BlobRow, MessageRow } from './schema';
import { dropUnusedFrames, frameKeysOf, storeMissingFrames, type RequestFrames } from './request-frames';
import { findThreadHead } from './session-verbs';
import { lastPositionOf } from './message-positions';
import { positionsAfter } from './position-clock';

/** A row to write: its session, seq and position are given where it lands. */
export type NewMessage = Omit<MessageRow, 'session_id' | 'seq' | 'position' | 'rank' | 'branch' | 'active' | 'compacted_by'> &
	Partial<Pick<MessageRow, 'active' | 'compacted_by'>>;

const TITLE_LENGTH = 60;

/** The auto title a session gets from its first user message: its first words, on one line, without control characters. */
export function titleFromMessage(text: string): string {
	const line = cleanTitle(text).replace(/\s+/g, ' ').trim();
	if (line.length <= TITLE_LENGTH) return line || 'New session';
	return `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}

/**
 * Appends messages to a session in one transaction, with their seqs, the session counters
 * and the auto title, and stores the request frames the rows refer to (`frames`) that are not
 * stored. Returns the stored rows.
 */
export async function appendMessages(
	db: PalimpsestDb,
	sessionId: string,
	messages: NewMessage[],
	now = Date.now(),
	frames: RequestFrames = {},
	images: readonly Omit<BlobRow, 'session_id'>[] = []
): Promise<MessageRow[]> {
	// Settings only with frames, blobs only with images: callers may append inside their own
	// transaction over the other two.
	const tables = [db.sessions, db.messages, ...(Object.keys(frames).length ? [db.settings] : []), ...(images.length ? [db.blobs] : [])];
	return db.transaction('rw', tables, async () => {
		const rows = await appendInTransaction(db, sessionId, messages, now);
		await storeMissingFrames(db, frames, rows);
		// The images the rows show, kept in the same transaction: a row never refers to missing bytes.
		if (images.length) await db.blobs.bulkPut(images.map((image) => ({ session_id: sessionId, ...image })));
		return rows;
	});
}

/**
 * Appends to the session where the conversation of `sessionId` goes on now (see
 * findThreadHead), found in the same transaction, so a rotation committing meanwhile cannot
 * leave the rows in the session it ended. Returns that session's id and the stored rows.
 */
export async function appendToThread(
	db: PalimpsestDb,
	sessionId: string,
	messages: NewMessage[],
	now = Date.now()
): Promise<{ sessionId: string; rows: MessageRow[] }> {
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const head = await findThreadHead(db, sessionId);
		return { sessionId: head, rows: await appendInTransaction(db, head, messages, now) };
	});
}

async function appendInTransaction(db: PalimpsestDb, sessionId: string, messages: NewMessage[], now: number): Promise<MessageRow[]> {
	const [session, last] = await Promise.all([db.sessions.get(sessionId), lastPositionOf(db, sessionId)]);
	if (!session) throw new Error(`Session ${sessionId} no longer exists.`);
	// After everything the session holds, its messages from other devices included, whatever this clock says.
	const positions = positionsAfter(last, messages.length, now);
	// Appended rows sort by their positions, and join the version on show at the end (if any).
	const rows: MessageRow[] = messages.map((message, index) => ({
		active: 1,
		compacted_by: null,
		...message,
		session_id: sessionId,
		seq: session.next_seq + index,
		position: positions[index],
		rank: positions[index],
		...(session.tip ? { branch: session.tip } : {})
	}));
	await db.messages.bulkAdd(rows);
	const firstUser = rows.find((row) => row.role === 'user' && row.kind === 'message');
	// Commands run before the first message (e.g. /help) do not use up the auto title.
	const retitle = session.title_source === 'auto' && firstUser;
	await db.sessions.update(sessionId, {
		next_seq: session.next_seq + rows.length,
		message_count: session.message_count + rows.length,
		last_activity_at: now,
		...(retitle ? { title: titleFromMessage(firstUser.content || (firstUser.attachments ?? []).map((a) => a.name).join(', ')), title_source: 'message' as const } : {})
	});
	return rows;
}

/** Writes part of one message row; false when the row is gone (e.g. the session was deleted). */
export async function updateMessage(
	db: PalimpsestDb,
	key: [string, number],
	changes: Partial<Omit<MessageRow, 'session_id' | 'seq'>>
): Promise<boolean> {
	return (await db.messages.update(key, changes)) === 1;
}

/** The first `limit` rows of a session, in order (compacted ones included). */
export function listFirstMessages(db: PalimpsestDb, sessionId: string, limit: number): Promise<MessageRow[]> {
	return db.messages
		.where('[session_id+seq]')
		.between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
		.limit(limit)
		.toArray();
}

export function listMessages(db: PalimpsestDb, sessionId: string): Promise<MessageRow[]> {
	return db.messages
		.where('[session_id+seq]')
		.between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
		.toArray();
}

/**
 * The tool result a pruned stub stands for: the compacted row of the same call just before it
 * (a stub is placed right after what it replaced). Null when there is none any more.
 */
export async function readPrunedOriginal(db: PalimpsestDb, stub: Pick<MessageRow, 'session_id' | 'seq' | 'tool_call_id'>): Promise<MessageRow | null> {
	const found = await db.messages
		.where('[session_id+seq]')
		.between([stub.session_id, Dexie.minKey], [stub.session_id, stub.seq], true, false)
		.reverse()
		.filter((row) => row.role === 'tool' && row.active === 0 && row.tool_call_id === stub.tool_call_id)
		.first();
	return found ?? null;
}

/**
 * Removes some messages of a session (Retry drops a failed answer), keeping counters right, and
 * the request frames only they referred to.
 */
export async function deleteMessages(db: PalimpsestDb, sessionId: string, seqs: number[]): Promise<number> {
	return db.transaction('rw', [db.sessions, db.messages, db.settings, db.blobs], async () => {
		const keys = seqs.map((seq): [string, number] => [sessionId, seq]);
		const rows = (await db.messages.bulkGet(keys)).filter((row) => row !== undefined);
		const removed = rows.length;
		await db.messages.bulkDelete(keys);
		await db.blobs.bulkDelete((await blobsNoLongerShown(db, sessionId, rows)).map((id): [string, string] => [sessionId, id]));
		await dropUnusedFrames(db, frameKeysOf(rows));
		const session = await db.sessions.get(sessionId);
		if (session) {
			await db.sessions.update(sessionId, {
				message_count: Math.max(0, session.message_count - removed)
			});
		}
		return removed;
	});
}

/**
 * Marks answers left `streaming` by a closed tab as `incomplete`, keeping their text. Rows of
 * sessions in `busy` (streaming in some open tab) are left alone.
 */
export async function markInterruptedMessages(
	db: PalimpsestDb,
	busy: ReadonlySet<string> = new Set()
): Promise<number> {
	return db.transaction('rw', db.messages, async () =>
		db.messages
			.where('status')
			.equals('streaming')
			.filter((row) => !busy.has(row.session_id))
			.modify({ status: 'incomplete' })
	);
}

/** Sessions that have an answer marked `streaming` (found through the status index). */
export async function listStreamingSessionIds(db: PalimpsestDb): Promise<string[]> {
	const keys = await db.messages.where('status').equals('streaming').primaryKeys();
	return [...new Set(keys.map(([sessionId]) => sessionId))];
}

/**
 * Marks the session's answers still `streaming` as `incomplete` with `reason`, keeping their
 * text; rows that finished meanwhile are left as they are. The caller holds the session's work
 * lock, so no tab is streaming into them. Returns how many rows it marked.
 */
export async function markSessionInterrupted(db: PalimpsestDb, sessionId: string, reason: string): Promise<number> {
	return db.messages
		.where('[session_id+seq]')
		.between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
		.filter((row) => row.status === 'streaming')
		.modify({ status: 'incomplete', error: reason });
}

/**
 * The ids of the bytes these rows refer to, each a row of `blobs` in the same session: a tool
 * result's images and the images and files attached to a message. Every path that deletes,
 * copies or exports rows carries these with them.
 */
export function blobIdsOf(rows: readonly MessageRow[]): string[] {
	return rows.flatMap((row) => [
		...(row.tool_result?.parts.flatMap((part) => (part.type === 'image' ? [part.id] : [])) ?? []),
		...(row.attachments?.map((attachment) => attachment.id) ?? [])
	]);
}

/**
 * The Blobs of `removed` rows (already deleted) that no row left in the session shows: a
 * compaction that stops sending an image keeps a copy of its row showing the same one.
 */
export async function blobsNoLongerShown(db: PalimpsestDb, sessionId: string, removed: readonly MessageRow[]): Promise<string[]> {
	const ids = new Set(blobIdsOf(removed));
	if (!ids.size) return [];
	await db.messages
		.where('[session_id+seq]')
		.between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
		.each((row) => {
			for (const id of blobIdsOf([row])) ids.delete(id);
		});
	return [...ids];
}

/** The bytes of these images of a session, by id; an id with no bytes (gone) is left out. */
export async function readImages(db: PalimpsestDb, sessionId: string, ids: readonly string[]): Promise<Map<string, Blob>> {
	if (!ids.length) return new Map();
	const rows = await db.blobs.bulkGet(ids.map((id): [string, string] => [sessionId, id]));
	return new Map(rows.filter((row) => row !== undefined).map((row) => [row.id, row.data]));
}

/** Copies the images `rows` show from one session to another, in the caller's transaction over `blobs`. */
export async function copyImages(db: PalimpsestDb, from: string, to: string, rows: readonly MessageRow[]): Promise<void> {
	const images = await db.blobs.bulkGet(blobIdsOf(rows).map((id): [string, string] => [from, id]));
	await db.blobs.bulkPut(images.filter((image) => image !== undefined).map((image) => ({ ...image, session_id: to })));
}
