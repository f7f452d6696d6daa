// A fresh profile database of the app's schema for one measurement, deleted after it.
import { PalimpsestDb } from '../../src/lib/db/database';

export async function withDatabase<T>(work: (db: PalimpsestDb) => Promise<T>): Promise<T> {
	const db = new PalimpsestDb(`palimpsest-bench-sync-${crypto.randomUUID()}`);
	try {
		return await work(db);
	} finally {
		db.close();
		await db.delete();
	}
}
