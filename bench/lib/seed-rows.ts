// Rows for seeding the built app's database directly (schema version 4): sessions built by the
// app's own buildSessionRow, message rows with every field the app reads, and conversations
// of a given size in tokens.
import { costText } from '../../src/lib/context/context-rows';
import type { NewMessage } from '../../src/lib/db/message-verbs';
import type { CompactionMarker, MessageRow, SessionRow } from '../../src/lib/db/schema';
import { buildSessionRow } from '../../src/lib/sessions/build-session-row';
import { testPosition } from '../../src/lib/db/test-position';
import { conversation } from './corpus';

export const ENCODING = 'o200k_base';

/**
 * Conversation rows until their counted text reaches `tokens`, ending on an assistant answer.
 * With `keepCounts` each row carries its count, as rows do once the app has estimated them.
 */
export function conversationOf(tokens: number, count: (text: string) => number, keepCounts = true, seed = 7): NewMessage[] {
	const rows: NewMessage[] = [];
	let total = 0;
	for (const row of conversation(seed)) {
		const counted = count(costText(row));
		rows.push(keepCounts ? { ...row, tokens: counted, encoding: ENCODING } : row);
		total += counted;
		if (total >= tokens && row.role === 'assistant' && !row.tool_calls) return rows;
	}
	throw new Error('unreachable: the conversation is endless');
}

/** The first `count` rows of the conversation, counted with `count` when given. */
export function conversationRows(rows: number, count?: (text: string) => number, seed = 7): NewMessage[] {
	const out: NewMessage[] = [];
	for (const row of conversation(seed)) {
		if (out.length === rows) return out;
		out.push(count ? { ...row, tokens: count(costText(row)), encoding: ENCODING } : row);
	}
	return out;
}

/** A stored session holding `rows` from seq 0, titled `title`. */
export function seededSession(id: string, title: string, rows: readonly MessageRow[], now = Date.now()): SessionRow {
	const base = buildSessionRow({ db: undefined as never, profile: 'default', platform: 'web', now: () => now }, { provider: 'offline', model: 'offline-mini', title }, id);
	const last = rows.at(-1)?.seq ?? -1;
	return { ...base, title_source: 'message', message_count: rows.length, next_seq: Math.floor(last) + 1 };
}

export function storedRows(sessionId: string, rows: readonly NewMessage[], firstSeq = 0, active: 0 | 1 = 1, compactedBy: string | null = null): MessageRow[] {
	return rows.map((row, index) => ({ ...row, session_id: sessionId, seq: firstSeq + index, position: testPosition(firstSeq + index), active, compacted_by: compactedBy }));
}

/**
 * A session as it is after many compactions in place: `compacted` rows left the context
 * (active 0), one summary marks the compaction and `live - 1` messages follow it.
 */
export function compactedSession(id: string, title: string, compacted: readonly NewMessage[], live: readonly NewMessage[], now = Date.now()): { session: SessionRow; rows: MessageRow[] } {
	const marker: CompactionMarker = {
		id: `${id}-compaction`,
		kind: 'summarize',
		reason: 'manual',
		before_tokens: 0,
		after_tokens: null,
		messages_removed: compacted.length,
		at: now
	};
	const summary: MessageRow = {
		session_id: id,
		seq: compacted.length - 0.5,
		// Written after everything it folds and everything before it: a position past them all.
		position: testPosition(compacted.length + live.length),
		id: `${id}-summary`,
		role: 'user',
		kind: 'summary',
		status: 'complete',
		content: '## Goal\n- Keep the benchmark session small in context.\n\n## Done\n- Folded the earlier messages into this summary.',
		active: 1,
		compacted_by: null,
		created_at: now,
		tokens: 30,
		encoding: ENCODING,
		compaction: marker
	};
	// The summary is one of the live rows: the newest `live - 1` messages follow it.
	const rows = [...storedRows(id, compacted, 0, 0, marker.id), summary, ...storedRows(id, live.slice(1), compacted.length)];
	return { session: seededSession(id, title, rows, now), rows };
}
