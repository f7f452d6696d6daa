// Hooks owed by commits: a deletion, an archive or a compaction writes the hook it owes plugins
// on its receipt, in its own transaction, and clears it once dispatched. What a closed tab left
// owed is claimed by one tab at the next start-up, which fires it.
import type { PalimpsestDb } from './database';
import type { ReceiptRow, UnfiredHook } from './schema';

/** The hook of receipt `opId` has been dispatched. */
export async function markFired(db: PalimpsestDb, opId: string): Promise<void> {
	await db.receipts.update(opId, { unfired: undefined });
}

/** Receipts whose hook is still owed, oldest first (a short table: receipts are kept 30 days). */
export async function listUnfired(db: PalimpsestDb): Promise<ReceiptRow[]> {
	return db.receipts.orderBy('at').filter((row) => row.unfired !== undefined).toArray();
}

/**
 * Takes the hooks of `opIds` that are still owed and clears them, in one transaction: of two
 * tabs that start at once, only one gets each. Returns them in the order asked.
 */
export async function claimUnfired(db: PalimpsestDb, opIds: readonly string[]): Promise<UnfiredHook[]> {
	return db.transaction('rw', db.receipts, async () => {
		const rows = (await db.receipts.bulkGet([...opIds])).filter((row): row is ReceiptRow => row?.unfired !== undefined);
		await db.receipts.bulkPut(rows.map(({ unfired: _, ...row }) => row));
		return rows.map((row) => row.unfired!);
	});
}

/** The receipt a compaction writes: it owes `post_compaction`. */
export function compactionReceipt(opId: string, at: number, unfired: UnfiredHook): ReceiptRow {
	return { op_id: opId, reason: 'compaction', session_id: unfired.payload.session_id, session_ids: [], detached_ids: [], at, unfired };
}
