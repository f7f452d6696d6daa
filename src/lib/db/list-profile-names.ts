// The names of the existing profiles, from the meta database.
import type { MetaDb } from './meta-db';

export async function listProfileNames(meta: MetaDb): Promise<string[]> {
	return (await meta.profiles.toCollection().primaryKeys()) as string[];
}
