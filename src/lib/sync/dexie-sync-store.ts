// The sync store over the profile's database.
import type { PalimpsestDb } from '../db/database';
import type { SyncStore } from './sync-store';

export function createSyncStore(db: PalimpsestDb): SyncStore {
	void db;
	throw new Error('not yet');
}
