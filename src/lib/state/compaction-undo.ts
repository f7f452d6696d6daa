// The compaction marker's actions: Undo compaction (in place), Edit summary and Continue in the earlier
// session (after a rotation), with what each says back to the user.
import { continueInEarlier, editSummary, undoCompaction } from '../sessions/undo-compaction';
import type { MessageRow } from '../db/schema';
import type { Services } from './services';

/** The marker row of the session's latest compaction still in effect, among the rows shown. */
export function latestMarker(rows: readonly MessageRow[]): MessageRow | undefined {
	return rows.filter((row) => row.active === 1 && row.compaction && row.compaction.undone_at === undefined).sort((a, b) => a.compaction!.at - b.compaction!.at).at(-1);
}

export async function undoMarker(services: Services, row: MessageRow): Promise<string> {
	const { restored } = await undoCompaction(services.sessionContext(), row.session_id, row.compaction!.id);
	void services.refreshTokens(row.session_id);
	return `Compaction undone: ${restored} message${restored === 1 ? ' is' : 's are'} back in the context.`;
}

/** Returns the id of the earlier session, where the conversation now goes on. */
export async function continueEarlier(services: Services, row: MessageRow): Promise<string> {
	const parentId = await continueInEarlier(services.sessionContext(), row.session_id, row.compaction!.id, row.compaction!.old_session_id!);
	void services.refreshTokens(parentId);
	return parentId;
}

/** Edit summary: the model sees `text` from the next request on. */
export async function editMarkerSummary(services: Services, row: MessageRow, text: string): Promise<string> {
	await editSummary(services.sessionContext(), row.session_id, row.compaction!.id, text);
	void services.refreshTokens(row.session_id);
	return 'Summary edited: the next request carries your text.';
}
