// Web Worker entry: runs sync over the profile's database, so sending and receiving (and reading
// whatever the server sends) never block the page.
import { expose } from 'comlink';
import { openProfileDb } from '../db/database';
import { onTablesChanged } from '../db/watch';
import { createSyncStore } from './dexie-sync-store';
import { createSyncWorkerApi } from './sync-runner';

expose(
	createSyncWorkerApi((profile) => {
		const db = openProfileDb(profile);
		try {
			return {
				store: createSyncStore(db, { profile }),
				watch: (onChange) => onTablesChanged(db, ['sessions', 'messages'], onChange),
				close: () => db.close()
			};
		} catch (error) {
			db.close();
			throw error;
		}
	})
);
