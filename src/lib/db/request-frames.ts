// The parts of sent requests that many answers share (where a request went, the system prompt,
// the tool list), stored once under a key made of their hash, and the rows a request carried.
// Kept in the settings table so that no schema version is needed.
import type { PalimpsestDb } from './database';
import type { MessageRow } from './schema';

export const REQUEST_FRAME_PREFIX = 'request-frame:';

/** Frames this tab knows are stored, so each is written once per tab at most. */
const stored = new WeakMap<PalimpsestDb, Set<string>>();

/** Stores a frame under its key unless it is there already (same key, same content). */
export async function storeRequestFrame(db: PalimpsestDb, key: string, frame: unknown): Promise<void> {
	const known = stored.get(db) ?? new Set<string>();
	stored.set(db, known);
	if (known.has(key)) return;
	await db.transaction('rw', db.settings, async () => {
		if (!(await db.settings.get(key))) await db.settings.put({ key, value: frame });
	});
	known.add(key);
}

export async function readRequestFrame(db: PalimpsestDb, key: string): Promise<unknown> {
	return (await db.settings.get(key))?.value;
}

/** The rows at these seqs of a session, in order; rows deleted since are left out. */
export async function readRowsAt(db: PalimpsestDb, sessionId: string, seqs: number[]): Promise<MessageRow[]> {
	const rows = await db.messages.bulkGet(seqs.map((seq): [string, number] => [sessionId, seq]));
	return rows.filter((row): row is MessageRow => row !== undefined);
}
