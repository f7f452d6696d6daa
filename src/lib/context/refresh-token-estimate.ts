// Keeps a session's token estimate current: counts only messages without a cached count (in
// the worker), stores those counts on their rows and the total on the session, in one write.
import { contextRows } from '../db/context-rows';
import type { PalimpsestDb } from '../db/database';
import { listMessages } from '../db/message-verbs';
import { encodingForModel } from './count-tokens';
import type { TokenClient } from './token-client';

export async function refreshTokenEstimate(
	db: PalimpsestDb,
	client: TokenClient,
	sessionId: string,
	model: string,
	systemPrompt = ''
): Promise<number | null> {
	const rows = contextRows(await listMessages(db, sessionId));
	const wanted = encodingForModel(model);
	// Only text without a usable cached count crosses to the worker, not the whole transcript.
	const messages = rows.map(({ content, tokens, encoding }) =>
		tokens !== undefined && encoding === wanted ? { content: '', tokens, encoding } : { content }
	);
	const estimate = await client.estimate({ messages, systemPrompt }, model);
	return db.transaction('rw', db.sessions, db.messages, async () => {
		const session = await db.sessions.get(sessionId);
		if (!session) return null;
		// Nothing new: no write, so live queries (the sidebar, other tabs) do not wake up.
		if (!estimate.recounted.length && session.token_estimate === estimate.total) return estimate.total;
		for (const index of estimate.recounted) {
			const row = rows[index];
			await db.messages.update([row.session_id, row.seq], {
				tokens: estimate.messageCounts[index],
				encoding: estimate.encoding
			});
		}
		await db.sessions.update(sessionId, { token_estimate: estimate.total });
		return estimate.total;
	});
}
