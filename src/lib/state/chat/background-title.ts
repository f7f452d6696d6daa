// Names a session after its first answer, in the background: a model writes a short title from
// the first message and the first answer. Kept as it was (the first message's first line) when
// the user named the session, the model runs in this tab, the browser is offline or the request
// fails; a rename while the model writes wins. Loaded after a first answer, not with the page.
import { writeTitle } from '../../agent/write-title';
import { listFirstMessages } from '../../db/message-verbs';
import { getSession, setModelTitle } from '../../db/session-verbs';
import type { Services } from '../app/services';

/** Rows of a session read to find its first message and answer: a first turn has few (tool rounds included). */
const FIRST_ROWS = 64;
/** How long the title may take before it is given up. */
const TITLE_TIMEOUT_MS = 60_000;

/** Asks for a title when `sessionId` has just had its first answer; resolves to whether one was set. */
export async function titleAfterFirstAnswer(services: Services, sessionId: string): Promise<boolean> {
	const { db } = services;
	const session = await getSession(db, sessionId);
	if (!session || session.title_source === 'user' || session.message_count > FIRST_ROWS) return false;
	const rows = await listFirstMessages(db, sessionId, FIRST_ROWS);
	const questions = rows.filter((row) => row.role === 'user' && row.kind === 'message');
	const answer = rows.findLast((row) => row.role === 'assistant' && row.kind === 'message' && row.status === 'complete' && row.content.trim());
	if (questions.length !== 1 || !answer || (!questions[0].content.trim() && !questions[0].attachments?.length)) return false;
	if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
	const writer = await services.titleWriter(session);
	if (!writer) return false;
	const question = questions[0].content || (questions[0].attachments ?? []).map((file) => file.name).join(', ');
	const { title, usage } = await writeTitle(writer, question, answer.content, AbortSignal.timeout(TITLE_TIMEOUT_MS));
	if (!title) return false;
	return setModelTitle(db, sessionId, session.title, title, { model: writer.model, ...(usage ? { usage } : {}) });
}
