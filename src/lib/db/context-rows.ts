// Which stored rows are part of the model's context. Pure; shared by the request builder and
// the token estimate so both see the same conversation.
import type { MessageRow } from './schema';

export function contextRows(rows: MessageRow[]): MessageRow[] {
	return rows.filter(
		(row) =>
			row.active === 1 &&
			(row.kind === 'message' || row.kind === 'summary') &&
			row.status !== 'streaming' &&
			!(row.role === 'assistant' && row.status === 'error' && !row.content)
	);
}
