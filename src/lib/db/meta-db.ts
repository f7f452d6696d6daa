// The small meta database that lists profiles and remembers the active one. Each profile's
// user has a stable id, which slash commands receive as `source.user_id`.
import Dexie, { type EntityTable } from 'dexie';
import { guardedOptions, guardVersion } from './version-guard';
import { keepConnection } from './connection-loss';

export interface ProfileRow {
	/**
	 * The profile's stable id: its database is `palimpsest-<name>`, its session keys and hook
	 * payloads carry it. Renaming a profile changes `display_name`, never this.
	 */
	name: string;
	/** What the user calls the profile (absent on the root profile until it is renamed). */
	display_name?: string;
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
		super('palimpsest-meta', guardedOptions(options));
		this.version(1).stores({ profiles: 'name', meta: 'key' });
		guardVersion(this);
		keepConnection(this);
	}
}

export const DEFAULT_PROFILE = 'default';

/**
 * The active profile, creating the root `default` profile on first run. An active profile
 * that no longer exists (deleted in another tab) falls back to `default`; only the root
 * profile is ever created here, so a deleted profile's database is never brought back.
 */
export async function loadActiveProfile(meta: MetaDb): Promise<ProfileRow> {
	return meta.transaction('rw', meta.profiles, meta.meta, async () => {
		const active = (await meta.meta.get('active_profile'))?.value ?? DEFAULT_PROFILE;
		const existing = (await meta.profiles.get(active)) ?? (await meta.profiles.get(DEFAULT_PROFILE));
		if (existing) {
			if (existing.name !== active) await meta.meta.put({ key: 'active_profile', value: existing.name });
			return existing;
		}
		const row: ProfileRow = {
			name: DEFAULT_PROFILE,
			user_id: `web-user-${crypto.randomUUID()}`,
			user_name: 'You',
			created_at: Date.now()
		};
		await meta.profiles.add(row);
		await meta.meta.put({ key: 'active_profile', value: DEFAULT_PROFILE });
		return row;
	});
}
