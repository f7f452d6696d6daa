// Web Worker entry: runs sync over the profile's database, so sending and receiving (and reading
// whatever the server sends) never block the page.
import { expose } from 'comlink';
import { openProfileDb, type PalimpsestDb } from '../db/database';
import { onTablesChanged } from '../db/watch';
import { readSetting } from '../db/settings-verbs';
import { createSyncStore } from './dexie-sync-store';
import { KEEP_DELETED_DAYS } from './keep-deleted-days';
import { createSyncWorkerApi } from './sync-runner';

/** Settings → Sync's "Keep deleted sessions' sync records for (days)", read at each look. */
async function readKeepDeletedDays(db: PalimpsestDb): Promise<number> {
	const days = await readSetting(db, 'sync.keep_deleted_days');
	return typeof days === 'number' ? days : KEEP_DELETED_DAYS;
}

expose(
	createSyncWorkerApi((profile) => {
		const db = openProfileDb(profile);
		try {
			return {
				store: createSyncStore(db, { profile, keepDeletedDays: () => readKeepDeletedDays(db) }),
				watch: (onChange) => onTablesChanged(db, ['sessions', 'messages'], onChange),
				close: () => db.close()
			};
		} catch (error) {
			db.close();
			throw error;
		}
	})
);
