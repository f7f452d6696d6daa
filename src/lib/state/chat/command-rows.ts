// A command typed in a new chat runs there and begins no session: the command and what it
// answered are shown in that chat as rows of their own, never stored.
import type { MessageRow } from '../../db/schema';

/** `rows` followed by the command `text` and, when it answered, its `output`. */
export function appendCommandRows(rows: MessageRow[], text: string, output: string | undefined, failed: boolean): MessageRow[] {
	const now = Date.now();
	const row = (seq: number, role: 'user' | 'assistant', content: string, status: MessageRow['status'], error?: string): MessageRow => ({
		session_id: '',
		seq,
		position: '',
		id: crypto.randomUUID(),
		role,
		content,
		status,
		kind: 'command',
		active: 1,
		compacted_by: null,
		created_at: now,
		...(error ? { error } : {})
	});
	const asked = [...rows, row(rows.length, 'user', text, 'complete')];
	if (output === undefined) return asked;
	return [...asked, row(asked.length, 'assistant', output, failed ? 'error' : 'complete', failed ? output : undefined)];
}
