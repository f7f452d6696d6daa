// Settings are key/value rows; defaults live with the code that reads them.
import type { PalimpsestDb } from './database';
import { REQUEST_FRAME_PREFIX } from './request-frames';

/** Writes every key of `patch` in one transaction: either all of them land or none do. */
export async function writeSettings(db: PalimpsestDb, patch: Record<string, unknown>): Promise<void> {
	await db.settings.bulkPut(Object.entries(patch).map(([key, value]) => ({ key, value })));
}

/** One setting's stored value (undefined: never set, its default applies). */
export async function readSetting(db: PalimpsestDb, key: string): Promise<unknown> {
	return (await db.settings.get(key))?.value;
}

export async function readAllSettings(db: PalimpsestDb): Promise<Record<string, unknown>> {
	// Request frames share the table (content-addressed, stored once) but are no settings.
	const rows = (await db.settings.toArray()).filter((row) => !row.key.startsWith(REQUEST_FRAME_PREFIX));
	return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}
