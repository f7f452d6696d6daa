// Tells a tab that its profile's database is being deleted (the profile was deleted in another
// tab). Dexie's own handler closes the connection but lets it reopen on the next read, which
// would create the deleted database again, empty; this closes it for good instead.
import type { PalimpsestDb } from './database';

export function watchDeletion(db: PalimpsestDb, onDeleted: () => void): () => void {
	const listener = (event: IDBVersionChangeEvent) => {
		if (event.newVersion) return;
		db.close({ disableAutoOpen: true });
		onDeleted();
		// Dexie runs newer listeners first; false keeps its default one from allowing a reopen.
		return false;
	};
	db.on('versionchange', listener);
	return () => db.on('versionchange').unsubscribe(listener);
}
