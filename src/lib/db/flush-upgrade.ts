// Makes a schema upgrade durable. An upgrade runs in the browser's own version-change
// transaction, whose durability script cannot choose; a strict commit on the same database
// reaches the disk only together with everything committed before it, so once one lands the
// upgrade is on disk too. This writes and removes one scratch row in a strict transaction:
// nothing stays behind, and live queries see no change.

const SCRATCH_KEY = '\u0000storage.flush';

/**
 * Called when `db` has opened after an upgrade. A failure here (a full disk) leaves the upgrade
 * to the browser's default durability and is not fatal.
 */
export async function flushUpgrade(db: IDBDatabase, table: string): Promise<void> {
	try {
		await new Promise<void>((resolve, reject) => {
			const tx = db.transaction(table, 'readwrite', { durability: 'strict' });
			const store = tx.objectStore(table);
			store.put({ key: SCRATCH_KEY, value: null });
			store.delete(SCRATCH_KEY);
			tx.oncomplete = () => resolve();
			tx.onabort = tx.onerror = () => reject(tx.error);
		});
	} catch (error) {
		console.warn('Could not flush the schema upgrade with a strict write', error);
	}
}
