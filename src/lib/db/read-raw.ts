// Reads a database as it is, with plain IndexedDB: no schema, no version asked, no upgrade, no
// write. This is what the start-up failure page exports when the app cannot open a database
// (written by a newer version, or damaged): every row that can still be read, store by store.

export interface RawDatabase {
	/** The version found on disk (0 when there is no such database). */
	version: number;
	rows: Record<string, unknown[]>;
	/** What could not be read, one line per store or step. */
	problems: string[];
}

function describe(error: unknown): string {
	if (error instanceof DOMException || error instanceof Error) return `${error.name}: ${error.message}`;
	return String(error);
}

/** Opens `name` at whatever version it has; never creates it. */
function openAsIs(factory: IDBFactory, name: string): Promise<IDBDatabase | null> {
	return new Promise((resolve, reject) => {
		const request = factory.open(name);
		let missing = false;
		// Only a database that does not exist yet needs an upgrade here: do not create it.
		request.onupgradeneeded = () => {
			missing = true;
			request.transaction?.abort();
		};
		request.onsuccess = () => resolve(request.result);
		request.onerror = (event) => {
			event.preventDefault();
			if (missing) resolve(null);
			else reject(request.error);
		};
		request.onblocked = () => reject(new Error('Another tab is changing this database; close the other Palimpsest tabs and try again.'));
	});
}

/** Every readable row of each store in `stores` (stores the database lacks are noted, not fatal). */
async function readStore(db: IDBDatabase, store: string): Promise<{ rows: unknown[]; problem?: string }> {
	const rows: unknown[] = [];
	return new Promise((resolve) => {
		let tx: IDBTransaction;
		try {
			tx = db.transaction(store, 'readonly');
		} catch (error) {
			resolve({ rows, problem: `${store}: ${describe(error)}` });
			return;
		}
		const cursor = tx.objectStore(store).openCursor();
		cursor.onsuccess = () => {
			const at = cursor.result;
			if (!at) return;
			rows.push(at.value);
			at.continue();
		};
		// A damaged part ends the read of this store; what came before it is kept.
		cursor.onerror = (event) => event.preventDefault();
		tx.oncomplete = () => resolve({ rows });
		tx.onabort = tx.onerror = () => resolve({ rows, problem: `${store}: read stopped after ${rows.length} rows (${describe(tx.error ?? cursor.error)})` });
	});
}

export async function readRawDatabase(name: string, stores: string[], factory: IDBFactory = indexedDB): Promise<RawDatabase> {
	const result: RawDatabase = { version: 0, rows: {}, problems: [] };
	let db: IDBDatabase | null;
	try {
		db = await openAsIs(factory, name);
	} catch (error) {
		result.problems.push(`The database could not be opened at all (${describe(error)}).`);
		return result;
	}
	if (!db) {
		result.problems.push('There is no database to read.');
		return result;
	}
	try {
		result.version = db.version;
		for (const store of stores) {
			if (!db.objectStoreNames.contains(store)) {
				result.problems.push(`${store}: not in this database.`);
				continue;
			}
			const { rows, problem } = await readStore(db, store);
			result.rows[store] = rows;
			if (problem) result.problems.push(problem);
		}
	} finally {
		db.close();
	}
	return result;
}
