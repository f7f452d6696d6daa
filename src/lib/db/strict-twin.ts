// A second connection to a profile database whose transactions commit with strict durability
// (flushed to disk before they report success). Dexie sets durability per connection, not per
// transaction, so the few writes that announce themselves to plugins afterwards (deletions,
// archives and their receipts) go through this twin: an event never names a deletion that a
// power cut could still undo. Everything else keeps the faster default.
import { PalimpsestDb } from './database';

const twins = new WeakMap<PalimpsestDb, PalimpsestDb>();

export function strictTwin(db: PalimpsestDb): PalimpsestDb {
	let twin = twins.get(db);
	if (!twin) {
		const created = new PalimpsestDb(db.name, { chromeTransactionDurability: 'strict' });
		twins.set(db, created);
		// When the app's connection closes (a profile switch, an upgrade in another tab, a test's
		// teardown), the twin goes too; the next deletion opens a fresh one.
		const onClose = () => {
			db.on('close').unsubscribe(onClose);
			if (twins.get(db) === created) twins.delete(db);
			created.close();
		};
		db.on('close', onClose);
		twin = created;
	}
	return twin;
}
