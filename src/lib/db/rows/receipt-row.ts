// The receipt of a deletion or archive, and the hook its commit still owes plugins.
import type { SessionDeletePayload, PostCompactionPayload } from '../../hooks/hook-payloads';

/**
 * What a deletion or archive operation did, written in the same transaction as its rows, so an
 * exact retry of the same operation id returns this instead of acting (and notifying) again.
 */
export interface ReceiptRow {
	op_id: string;
	reason: string;
	session_id: string;
	/** Every session row the operation removed or archived. */
	session_ids: string[];
	/** Children whose parent link the operation cleared (branches of a deleted session). */
	detached_ids: string[];
	at: number;
	/**
	 * The hook this commit owes plugins, written in its transaction and cleared once dispatched:
	 * left by a tab that closed in between, it fires at the next start-up (see replay-unfired-hooks.ts).
	 */
	unfired?: UnfiredHook;
}

/** A hook owed by a commit of tab `tab` (see ReceiptRow.unfired). */
export type UnfiredHook = { tab: string } & ({ hook: 'on_session_delete'; payload: SessionDeletePayload } | { hook: 'post_compaction'; payload: PostCompactionPayload });
