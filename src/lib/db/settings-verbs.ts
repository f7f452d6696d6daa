// Settings are key/value rows; defaults live with the code that reads them.
import type { PalimpsestDb } from './database';

export async function readSetting<T>(db: PalimpsestDb, key: string, fallback: T): Promise<T> {
	const row = await db.settings.get(key);
	return row === undefined ? fallback : (row.value as T);
}

/** Writes every key of `patch` in one transaction: either all of them land or none do. */
export async function writeSettings(db: PalimpsestDb, patch: Record<string, unknown>): Promise<void> {
	await db.settings.bulkPut(Object.entries(patch).map(([key, value]) => ({ key, value })));
}

export async function readAllSettings(db: PalimpsestDb): Promise<Record<string, unknown>> {
	const rows = await db.settings.toArray();
	return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}
