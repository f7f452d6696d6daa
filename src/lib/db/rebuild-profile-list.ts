// Starts the list of profiles over when the meta database cannot be opened. The list holds only
// profile names and the active choice; each profile's sessions live in their own database, which
// this never touches. The new list names every profile database the browser still has.
import Dexie from 'dexie';
import { DEFAULT_PROFILE, MetaDb, type ProfileRow } from './meta-db';
import { profileOfDbName } from './database';

const META = 'palimpsest-meta';

/** The profile ids whose databases exist in this browser (the root profile always listed). */
export async function listProfileDatabases(factory: IDBFactory = indexedDB): Promise<string[]> {
	const found = typeof factory.databases === 'function' ? await factory.databases() : [];
	const ids = found
		.map((info) => info.name ?? '')
		.filter((name) => name.startsWith('palimpsest-') && name !== META)
		.map(profileOfDbName);
	return [...new Set([DEFAULT_PROFILE, ...ids])];
}

/** Deletes the list of profiles and lists again the profile databases found; the root profile becomes active. */
export async function rebuildProfileList(now = Date.now()): Promise<ProfileRow[]> {
	const ids = await listProfileDatabases();
	await Dexie.delete(META);
	const meta = new MetaDb();
	try {
		const rows: ProfileRow[] = ids.map((name) => ({
			name,
			...(name === DEFAULT_PROFILE ? {} : { display_name: name }),
			user_id: `web-user-${crypto.randomUUID()}`,
			user_name: 'You',
			created_at: now
		}));
		await meta.transaction('rw', meta.profiles, meta.meta, async () => {
			await meta.profiles.bulkAdd(rows);
			await meta.meta.put({ key: 'active_profile', value: DEFAULT_PROFILE });
		});
		return rows;
	} finally {
		meta.close();
	}
}
