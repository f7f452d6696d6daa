// The small meta database that lists profiles and remembers the active one. Each profile's
// user has a stable id, which slash commands receive as `source.user_id`.
import Dexie, { type EntityTable } from 'dexie';

export interface ProfileRow {
	name: string;
	user_id: string;
	user_name: string;
	created_at: number;
}

interface MetaRow {
	key: string;
	value: string;
}

export class MetaDb extends Dexie {
	profiles!: EntityTable<ProfileRow, 'name'>;
	meta!: EntityTable<MetaRow, 'key'>;

	constructor(options?: ConstructorParameters<typeof Dexie>[1]) {
		super('palimpsest-meta', options);
		this.version(1).stores({ profiles: 'name', meta: 'key' });
	}
}

export const DEFAULT_PROFILE = 'default';

/** The active profile, creating the root `default` profile on first run. */
export async function loadActiveProfile(meta: MetaDb): Promise<ProfileRow> {
	return meta.transaction('rw', meta.profiles, meta.meta, async () => {
		const active = (await meta.meta.get('active_profile'))?.value ?? DEFAULT_PROFILE;
		const existing = await meta.profiles.get(active);
		if (existing) return existing;
		const row: ProfileRow = {
			name: active,
			user_id: `web-user-${crypto.randomUUID()}`,
			user_name: 'You',
			created_at: Date.now()
		};
		await meta.profiles.add(row);
		await meta.meta.put({ key: 'active_profile', value: active });
		return row;
	});
}
