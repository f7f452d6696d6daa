// Which stored rows are part of the model's context. Pure; shared by the request builder and
// the token estimate so both see the same conversation.
import type { MessageRow } from './schema';

/** One row's part in the context: live, a message or summary, finished, and not an empty failed answer. */
export function isContextRow(row: MessageRow): boolean {
	return (
		row.active === 1 &&
		(row.kind === 'message' || row.kind === 'summary') &&
		row.status !== 'streaming' &&
		!(row.role === 'assistant' && row.status === 'error' && !row.content)
	);
}

export function contextRows(rows: MessageRow[]): MessageRow[] {
	return rows.filter(isContextRow);
}
