// The parts of sent requests that many answers share (where a request went, the system prompt,
// the tool list), stored once under a key made of their hash, and the rows a request carried.
// Kept in the settings table. A frame lives as long as some message row refers to it: rows that
// refer to one are written with it, in one transaction, and deleting sessions (every deletion
// path) or answers (Retry) drops the frames they leave unused in the same transaction, found
// through two indexes of messages on `sent.frame`, so no deletion reads the rows it removes.
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { MessageRow, SettingRow } from './schema';

export const REQUEST_FRAME_PREFIX = 'request-frame:';

/** Frames by key, as they go with the rows that refer to them. */
export type RequestFrames = Record<string, unknown>;

/**
 * The tables frames live by; a database, its strict twin, or an upgrade's tables (named here,
 * not taken from the database class, whose version 7 upgrade uses this file).
 */
export interface FrameTables {
	messages: Table<MessageRow, [string, number]>;
	settings: EntityTable<SettingRow, 'key'>;
}

/**
 * Stores the frames `rows` refer to, taken from `frames`, that are not stored. Call it in the
 * transaction that writes the rows: a deletion's sweep then commits wholly before it (and the
 * frame is written again) or after it (and sees the rows), never in between.
 */
export async function storeMissingFrames(db: FrameTables, frames: RequestFrames, rows: readonly MessageRow[]): Promise<void> {
	const keys = frameKeysOf(rows).filter((key) => key in frames);
	if (!keys.length) return;
	const stored = await db.settings.bulkGet(keys);
	await db.settings.bulkAdd(keys.filter((_, i) => !stored[i]).map((key) => ({ key, value: frames[key] })));
}

export async function readRequestFrame(db: FrameTables, key: string): Promise<unknown> {
	return (await db.settings.get(key))?.value;
}

/** The keys of the frames `rows` refer to, each once. */
export function frameKeysOf(rows: readonly MessageRow[]): string[] {
	return [...new Set(rows.flatMap((row) => (row.sent ? [row.sent.frame] : [])))];
}

/** The stored frames that `rows` refer to, to go with a copy of the rows. */
export async function readFramesOf(db: FrameTables, rows: readonly MessageRow[]): Promise<RequestFrames> {
	const found = await db.settings.bulkGet(frameKeysOf(rows));
	return Object.fromEntries(found.flatMap((row) => (row ? [[row.key, row.value]] : [])));
}

/**
 * The frames that rows of these sessions refer to: one key cursor per session that steps from
 * frame to frame (never row to row), all issued at once.
 */
export async function listFramesOfSessions(db: FrameTables, sessionIds: readonly string[]): Promise<string[]> {
	const keys = await Promise.all(
		sessionIds.map((id) =>
			db.messages.where('[session_id+sent.frame]').between([id, Dexie.minKey], [id, Dexie.maxKey]).uniqueKeys()
		)
	);
	return [...new Set(keys.flat().map((key) => (key as unknown as [string, string])[1]))];
}

/** Drops those of `keys` that no message row refers to any more; returns the dropped keys. */
export async function dropUnusedFrames(db: FrameTables, keys: readonly string[]): Promise<string[]> {
	const used = await Promise.all(keys.map(async (key) => (await db.messages.where('sent.frame').equals(key).limit(1).primaryKeys()).length > 0));
	const unused = keys.filter((_, i) => !used[i]);
	await db.settings.bulkDelete(unused);
	return unused;
}

/** Drops every stored frame that no message row refers to (frames older deletions left). */
export async function dropAllUnusedFrames(db: FrameTables): Promise<string[]> {
	const keys = await db.settings.where('key').startsWith(REQUEST_FRAME_PREFIX).primaryKeys();
	return dropUnusedFrames(db, keys);
}

/** The rows at these seqs of a session, in order; rows deleted since are left out. */
export async function readRowsAt(db: FrameTables, sessionId: string, seqs: number[]): Promise<MessageRow[]> {
	const rows = await db.messages.bulkGet(seqs.map((seq): [string, number] => [sessionId, seq]));
	return rows.filter((row): row is MessageRow => row !== undefined);
}
