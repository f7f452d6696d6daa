// The compaction marker's actions: Undo compaction (in place), Edit summary and Continue in the earlier
// session (after a rotation), with what each says back to the user.
import { liveMarkers } from '../../db/live-markers';
import type { MessageRow } from '../../db/schema';
import type { ConfirmRequest } from '../shared/confirm.svelte';
import type { Services } from '../app/services';

/** The verbs behind the marker's actions, loaded with the first one used, not with the page. */
const verbs = () => import('../../sessions/undo-compaction');

/** The marker row of the session's latest compaction still in effect, among the rows shown. */
export function latestMarker(rows: readonly MessageRow[]): MessageRow | undefined {
	return liveMarkers(rows.filter((row) => row.active === 1)).at(-1);
}

/**
 * The question to ask before an undo that would take the context past the model's window (the
 * next message then compacts again at once), or null when the undo fits. An estimate that
 * cannot be made asks nothing: the undo itself says what went wrong, if anything.
 */
export async function undoWarning(services: Services, row: MessageRow): Promise<ConfirmRequest | null> {
	try {
		const rows = await (await verbs()).previewUndo(services.sessionContext(), row.session_id, row.compaction!.id);
		const after = await services.estimateContext(row.session_id, rows);
		if (!after || after.total <= after.windowTokens) return null;
		const tokens = (n: number) => n.toLocaleString('en');
		return {
			title: 'Undo compaction?',
			message:
				`The compacted messages would bring the context to about ${tokens(after.total)} tokens, more than the ${tokens(after.windowTokens)}-token window of ${after.model}. ` +
				'Your next message will then compact the conversation again before it is sent, maybe more than this compaction did. Cancel keeps the conversation as it is.',
			confirmLabel: 'Undo compaction'
		};
	} catch (error) {
		console.warn('Could not estimate the context after an undo', error);
		return null;
	}
}

export async function undoMarker(services: Services, row: MessageRow): Promise<string> {
	const { restored } = await (await verbs()).undoCompaction(services.sessionContext(), row.session_id, row.compaction!.id);
	void services.refreshTokens(row.session_id);
	return `Compaction undone: ${restored} message${restored === 1 ? ' is' : 's are'} back in the context.`;
}

/** Returns the id of the earlier session, where the conversation now goes on. */
export async function continueEarlier(services: Services, row: MessageRow): Promise<string> {
	const parentId = await (await verbs()).continueInEarlier(services.sessionContext(), row.session_id, row.compaction!.id, row.compaction!.old_session_id!);
	void services.refreshTokens(parentId);
	return parentId;
}

/** Edit summary: the model sees `text` from the next request on. */
export async function editMarkerSummary(services: Services, row: MessageRow, text: string): Promise<string> {
	await (await verbs()).editSummary(services.sessionContext(), row.session_id, row.compaction!.id, text);
	void services.refreshTokens(row.session_id);
	return 'Summary edited: the next request carries your text.';
}
