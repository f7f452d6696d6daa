// A chat whose compaction is off never compacts on its own: when its context is full, the
// Message box asks before sending (Compact now, Send anyway, or Cancel). Loaded only then.
import type { CompactionsState } from './compaction.svelte';
import type { ConfirmState } from '../shared/confirm.svelte';

/**
 * Asks about sending into the full context of `sessionId`; compacts first when the user says
 * so. Resolves true to send, or to the reason the message stays unsent (false: cancelled).
 */
export async function askWhenFull(confirm: ConfirmState, compactions: CompactionsState, sessionId: string): Promise<true | false | string> {
	const choice = await confirm.choose({
		title: 'The context is full',
		message:
			"This chat's compaction is off (Chat settings), and the next request fills the model's context window: the model may refuse it, or lose the start of the conversation. Compact the conversation first, or send the message as it is.",
		confirmLabel: 'Compact now',
		alternativeLabel: 'Send anyway'
	});
	if (choice === 'cancel') return false;
	if (choice === 'alternative') return true;
	const outcome = await compactions.compact(sessionId, 'manual');
	// Nothing changed because it failed or was cancelled: the message waits, with the reason.
	return outcome.status === 'noop' && (outcome.why === 'failed' || outcome.why === 'cancelled') ? outcome.message : true;
}
