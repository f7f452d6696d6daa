// Why a message cannot go to a session now: an answer is streaming into it here or in another
// tab, or a compaction the user asked for is running.
import { isWorkLockHeld, localWork } from '../../sessions/work-lock';
import type { CompactionsState } from '../compaction/compaction.svelte';

export const ANSWERING_HERE = 'Wait for the current answer, or stop it.';
export const ANSWERING_ELSEWHERE = 'This session is answering in another tab. Wait for it to finish, or stop it there.';
const COMPACTING_HERE = 'This session is being compacted. Wait for it to finish, or cancel it.';

/** Why a message cannot go to session `id` of `profile` now (`answering`: this tab streams into it), or null. */
export async function findSendRefusal(profile: string, id: string, answering: boolean, compactions: CompactionsState): Promise<string | null> {
	if (answering) return ANSWERING_HERE;
	const here = localWork(profile, id);
	// An idle pass after the last answer gives way to a new message; a compaction the user asked for does not.
	if (here === 'compaction') return compactions.progress.get(id)?.reason === 'manual' ? COMPACTING_HERE : null;
	if (here) return ANSWERING_HERE;
	return (await isWorkLockHeld(profile, id)) ? ANSWERING_ELSEWHERE : null;
}
