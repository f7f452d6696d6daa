// Verbs on the list of profiles: create, rename, switch, count and delete. A profile's data is
// its own database; the meta database only lists the profiles and names the active one.
import Dexie from 'dexie';
import { openProfileDb, profileDbName } from './database';
import { DEFAULT_PROFILE, type MetaDb, type ProfileRow } from './meta-db';
import { checkProfileName, profileIdFor } from './profile-id';

const ACTIVE = 'active_profile';

/** The root profile first, then the others in the order they were created. */
export async function listProfiles(meta: MetaDb): Promise<ProfileRow[]> {
	const rows = await meta.profiles.toArray();
	return rows.sort((a, b) => Number(b.name === DEFAULT_PROFILE) - Number(a.name === DEFAULT_PROFILE) || a.created_at - b.created_at);
}

export async function readActiveProfileId(meta: MetaDb): Promise<string> {
	return (await meta.meta.get(ACTIVE))?.value ?? DEFAULT_PROFILE;
}

/** Adds a profile with its own local user; its database is created when it is first opened. */
export async function createProfile(meta: MetaDb, displayName: string, now = Date.now()): Promise<ProfileRow> {
	return meta.transaction('rw', meta.profiles, async () => {
		const existing = await meta.profiles.toArray();
		const checked = checkProfileName(displayName, existing);
		if ('error' in checked) throw new Error(checked.error);
		const row: ProfileRow = {
			name: profileIdFor(checked.name, existing.map((p) => p.name)),
			display_name: checked.name,
			user_id: `web-user-${crypto.randomUUID()}`,
			user_name: 'You',
			created_at: now
		};
		await meta.profiles.add(row);
		return row;
	});
}

/** Changes what the profile is called. Its id, database, session keys and records stay as they are. */
export async function renameProfile(meta: MetaDb, id: string, displayName: string): Promise<void> {
	await meta.transaction('rw', meta.profiles, async () => {
		const all = await meta.profiles.toArray();
		if (!all.some((p) => p.name === id)) throw new Error('This profile no longer exists.');
		const checked = checkProfileName(displayName, all.filter((p) => p.name !== id));
		if ('error' in checked) throw new Error(checked.error);
		await meta.profiles.update(id, { display_name: checked.name });
	});
}

/** Makes `id` the profile the app opens (in this tab after a reload, and in tabs opened later). */
export async function setActiveProfile(meta: MetaDb, id: string): Promise<void> {
	await meta.transaction('rw', meta.profiles, meta.meta, async () => {
		if (!(await meta.profiles.get(id))) throw new Error('This profile no longer exists.');
		await meta.meta.put({ key: ACTIVE, value: id });
	});
}

/** How many sessions a profile holds (archived ones included), without creating its database. */
export async function countProfileSessions(id: string): Promise<number> {
	const name = profileDbName(id);
	if (!(await Dexie.exists(name))) return 0;
	const db = openProfileDb(id);
	try {
		return await db.sessions.count();
	} finally {
		db.close();
	}
}

/**
 * Deletes a profile and its whole database (sessions, settings, plugins and their storage).
 * The profile leaves the list first, so no tab can switch to it (or re-create its database)
 * while it is deleted; if the database cannot be deleted, the list is put back as it was.
 */
export async function deleteProfile(meta: MetaDb, id: string): Promise<void> {
	if (id === DEFAULT_PROFILE) throw new Error('The default profile cannot be deleted.');
	const before = await meta.transaction('rw', meta.profiles, meta.meta, async () => {
		const row = await meta.profiles.get(id);
		if (!row) throw new Error('This profile no longer exists.');
		const active = await readActiveProfileId(meta);
		await meta.profiles.delete(id);
		if (active === id) await meta.meta.put({ key: ACTIVE, value: DEFAULT_PROFILE });
		return { row, active };
	});
	try {
		await Dexie.delete(profileDbName(id));
	} catch (error) {
		await meta.transaction('rw', meta.profiles, meta.meta, async () => {
			await meta.profiles.put(before.row);
			if (before.active === id) await meta.meta.put({ key: ACTIVE, value: id });
		});
		throw error;
	}
}
