// Which rows "Keep in context" keeps: a message the user pinned, and with an answer that called
// tools, the results of those calls (a call is never sent without its results). Compaction
// leaves these rows as they are; the meter counts their tokens. Pure.

/** The fields of a row that say whether a pin keeps it (a stored row and a planned row alike). */
export interface PinnableRow {
	seq: number;
	role: string;
	kind: string;
	pinned?: boolean;
	tool_calls?: ReadonlyArray<{ id: string }>;
	tool_call_id?: string;
}

/** Only your messages and the answers can be kept; a tool result goes with the answer that called it. */
export function canPin(row: Pick<PinnableRow, 'role' | 'kind'>): boolean {
	return row.kind === 'message' && (row.role === 'user' || row.role === 'assistant');
}

/** A message the user keeps in context (a pin on any other row means nothing). */
export function isPinned(row: Pick<PinnableRow, 'role' | 'kind' | 'pinned'>): boolean {
	return row.pinned === true && canPin(row);
}

/** The rows of `rows` (in context order) that pins keep: each pinned message and the results right after a pinned answer's calls. */
export function findKeptRows<T extends PinnableRow>(rows: readonly T[]): T[] {
	const kept: T[] = [];
	let calls = new Set<string>();
	for (const row of rows) {
		if (row.role === 'tool') {
			if (calls.has(row.tool_call_id ?? '')) kept.push(row);
			continue;
		}
		const pinned = isPinned(row);
		calls = pinned ? new Set((row.tool_calls ?? []).map((call) => call.id)) : new Set();
		if (pinned) kept.push(row);
	}
	return kept;
}

/** The seqs of the rows pins keep. */
export function keptSeqs(rows: readonly PinnableRow[]): Set<number> {
	return new Set(findKeptRows(rows).map((row) => row.seq));
}

/**
 * What pins keep, as the meter says it: how many messages were pinned, and the tokens of every
 * row they keep (on the meter's scale: times the provider's ratio, where it gave one).
 */
export function pinnedTokens(rows: readonly (PinnableRow & { tokens?: number })[], ratio = 1): { messages: number; tokens: number } {
	const kept = findKeptRows(rows);
	const tokens = kept.reduce((sum, row) => sum + (row.tokens ?? 0), 0);
	return { messages: kept.filter((row) => row.role !== 'tool').length, tokens: Math.round(tokens * ratio) };
}
