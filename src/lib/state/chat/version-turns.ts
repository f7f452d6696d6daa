// The turns that make a new version of a conversation: "Edit" and "Regenerate" put a message and
// what followed it on an earlier version (kept, and shown again with the version switcher), then
// the model answers again.
import type { MessageRow, SessionRow, VersionPoint } from '../../db/schema';
import { startVersion, VersionConflictError } from '../../db/version-verbs';
import type { Turn } from './run-chat-turn';

/** The turn of "Edit" on message `seq` of `messages`: the edited text in its place, then an answer. Throws when the message is gone. */
export function editTurn(sessionId: string, messages: MessageRow[], seq: number, text: string): Turn {
	const index = messages.findIndex((row) => row.seq === seq);
	if (index < 0) throw new VersionConflictError();
	const after = index > 0 ? messages[index - 1].seq : null;
	const now = Date.now();
	const { attachments } = messages[index];
	// The edited message keeps what was attached: both versions show the same stored bytes.
	const edited = { id: crypto.randomUUID(), role: 'user' as const, content: text, status: 'complete' as const, kind: 'message' as const, created_at: now, ...(attachments ? { attachments } : {}) };
	return async (deps, input, turns) => {
		const { rows } = await startVersion(deps.db, sessionId, after, seq, [edited]);
		input.onEvent?.({ type: 'user_stored', key: [sessionId, rows[0].seq] });
		return turns.retryTurn(deps, input);
	};
}

/** The question that answer `seq` of `messages` answers. */
export function questionOf(messages: MessageRow[], seq: number): MessageRow {
	const question = messages.findLast((row) => row.seq < seq && row.role === 'user' && row.kind === 'message');
	if (!question) throw new Error('There is no question to answer again.');
	return question;
}

/** The turn of "Regenerate" on answer `seq`: it becomes an earlier version, and `question` is answered again. */
export function regenerateTurn(sessionId: string, question: MessageRow, seq: number): Turn {
	return async (deps, input, turns) => {
		await startVersion(deps.db, sessionId, question.seq, seq);
		return turns.retryTurn(deps, input);
	};
}

/** The versions at the place before row `index` of the rows on show, when there is more than one. */
export function versionsBefore(session: SessionRow | null, shown: MessageRow[], index: number): VersionPoint | null {
	const after = index > 0 ? shown[index - 1].seq : null;
	const point = session?.versions?.find((p) => p.after === after);
	return point && point.count > 1 ? point : null;
}
