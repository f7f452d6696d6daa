// How much each session stores: the text of all its message rows (compacted ones too, which
// stay until deletion), read a chunk at a time. This is what deleting a session gives back.
import type { PalimpsestDb } from './database';
import type { MessageRow } from './schema';

export interface SessionSize {
	id: string;
	title: string;
	archived: 0 | 1;
	pinned: 0 | 1;
	last_activity_at: number;
	/** Message rows stored, compacted ones included. */
	messages: number;
	/** Characters of stored text: message contents, tool calls and plugin context. */
	chars: number;
}

/** Rows read per step of the scan: one request each. */
export const SCAN_CHUNK = 2000;

/** The characters a message row keeps, roughly what it costs on disk. */
export function measureMessage(row: MessageRow): number {
	let chars = row.content.length;
	if (row.tool_calls) chars += JSON.stringify(row.tool_calls).length;
	if (row.injected) for (const part of row.injected) chars += part.text.length;
	if (row.error) chars += row.error.length;
	return chars;
}

/** Every session with what it stores, largest first (then least recently active first). */
export async function measureSessions(db: PalimpsestDb, chunk = SCAN_CHUNK): Promise<SessionSize[]> {
	const totals = new Map<string, { messages: number; chars: number }>();
	let after: [string, number] | null = null;
	for (;;) {
		const from: ReturnType<typeof db.messages.toCollection> = after ? db.messages.where(':id').above(after) : db.messages.toCollection();
		const rows: MessageRow[] = await from.limit(chunk).toArray();
		for (const row of rows) {
			const total = totals.get(row.session_id) ?? { messages: 0, chars: 0 };
			total.messages += 1;
			total.chars += measureMessage(row);
			totals.set(row.session_id, total);
		}
		if (rows.length < chunk) break;
		const last = rows[rows.length - 1];
		after = [last.session_id, last.seq];
	}
	const sessions = await db.sessions.toArray();
	return sessions
		.map((row) => ({
			id: row.id,
			title: row.title,
			archived: row.archived,
			pinned: row.pinned,
			last_activity_at: row.last_activity_at,
			...(totals.get(row.id) ?? { messages: 0, chars: 0 })
		}))
		.sort((a, b) => b.chars - a.chars || a.last_activity_at - b.last_activity_at);
}
