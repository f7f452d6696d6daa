// Finds sessions whose title or message text contains a query (case-insensitive). Titles are
// matched first from a cached list; message text is scanned in chunks of rows, so a newer
// query can stop a scan between two chunks.
import { Dexie, type PalimpsestDb } from './database';
import type { MessageRow } from './schema';

/** Rows read per step of a message scan: one request each, a place to stop between them. */
export const SCAN_CHUNK = 2000;

export interface TitleEntry {
	id: string;
	/** The title in lower case, ready to match. */
	title: string;
}

/** What a query matches: trimmed and in lower case; empty means "no search". */
export function normalizeQuery(query: string): string {
	return query.trim().toLocaleLowerCase();
}

/** Every session's id and title (archived ones too: the caller intersects with its list). */
export async function readTitles(db: PalimpsestDb): Promise<TitleEntry[]> {
	const rows = await db.sessions.toArray();
	return rows.map((row) => ({ id: row.id, title: row.title.toLocaleLowerCase() }));
}

export function matchTitles(titles: readonly TitleEntry[], needle: string): string[] {
	if (!needle) return [];
	return titles.filter((entry) => entry.title.includes(needle)).map((entry) => entry.id);
}

export interface ScanOptions {
	/** Sessions already found (by title): their messages are not read again. */
	skip?: ReadonlySet<string>;
	/** Checked between chunks: true stops the scan, which then resolves to null. */
	stale?: () => boolean;
	chunk?: number;
}

/**
 * Sessions with a message whose text contains `needle` (already normalized). Reads the
 * messages table in primary-key order, a chunk at a time; once a session is found (or was to
 * be skipped) the next chunk starts after its last message.
 */
export async function scanMessages(db: PalimpsestDb, needle: string, options: ScanOptions = {}): Promise<Set<string> | null> {
	const { skip = new Set<string>(), stale = () => false, chunk = SCAN_CHUNK } = options;
	const found = new Set<string>();
	if (!needle) return found;
	const done = (id: string) => found.has(id) || skip.has(id);
	let after: [string, unknown] | null = null;
	for (;;) {
		if (stale()) return null;
		const from: ReturnType<typeof db.messages.toCollection> = after ? db.messages.where(':id').above(after) : db.messages.toCollection();
		const rows: MessageRow[] = await from.limit(chunk).toArray();
		for (const row of rows) {
			if (!done(row.session_id) && row.content.toLocaleLowerCase().includes(needle)) found.add(row.session_id);
		}
		if (rows.length < chunk) return stale() ? null : found;
		const last = rows[rows.length - 1];
		after = done(last.session_id) ? [last.session_id, Dexie.maxKey] : [last.session_id, last.seq];
	}
}

/** Title and content matches together, in one call (tests, small profiles). */
export async function searchSessionIds(db: PalimpsestDb, query: string): Promise<Set<string>> {
	const needle = normalizeQuery(query);
	const byTitle = new Set(matchTitles(await readTitles(db), needle));
	const byContent = (await scanMessages(db, needle, { skip: byTitle })) ?? new Set<string>();
	return new Set([...byTitle, ...byContent]);
}
