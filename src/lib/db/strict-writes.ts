// Writes that must survive a crash or a power cut commit with strict durability: the browser
// reports success only once they are on disk. Ordinary writes (streaming checkpoints, settings)
// keep the browser's faster default. Dexie sets durability per connection, so a strict write
// goes through a second connection to the same database, opened for it and closed after it.
import { PalimpsestDb } from './database';

/** Options for a connection whose every transaction is strict. */
export const STRICT_DURABILITY = { chromeTransactionDurability: 'strict' } as const;

/**
 * Runs `work` on a strict connection to `db`'s database and closes it afterwards: imports,
 * deletion receipts, anything an event or a user will later rely on having happened. Live
 * queries on `db` see these writes as they see any other.
 */
export async function withStrictDb<T>(db: PalimpsestDb, work: (strict: PalimpsestDb) => Promise<T>): Promise<T> {
	const strict = new PalimpsestDb(db.name, STRICT_DURABILITY);
	try {
		return await work(strict);
	} finally {
		strict.close();
	}
}
