// "Add lost facts to summary" on a compaction marker: the facts its summary lost are appended
// to it, each as it was written, as an edit of the summary (the original stays in the history,
// and Undo compaction works as after any edit). Loaded with the marker's list of lost facts.
import { addFacts } from '../../context/lost-facts-section';
import type { MessageRow } from '../../db/schema';
import type { Services } from '../app/services';

/** Returns how many facts were added. */
export async function addLostFacts(services: Services, row: MessageRow): Promise<number> {
	const { editSummary } = await import('../../sessions/undo-compaction');
	let added = 0;
	await editSummary(services.sessionContext(), row.session_id, row.compaction!.id, (original, now) => {
		const facts = original.compaction?.facts;
		const wanted = facts?.lost.filter((fact) => !fact.added) ?? [];
		if (!facts || !wanted.length) throw new Error('This summary has no lost facts left to add.');
		added = wanted.length;
		return { text: addFacts(original.content, wanted), facts: { ...facts, lost: facts.lost.map((fact) => ({ ...fact, added: true as const })), added_at: now } };
	});
	void services.refreshTokens(row.session_id);
	return added;
}
