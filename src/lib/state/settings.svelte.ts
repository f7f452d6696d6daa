// The profile's settings as runes. Writes go to the database; reads come back through a
// live query, so other tabs stay in step.
import type { PalimpsestDb } from '../db/database';
import { readAllSettings, writeSetting } from '../db/settings-verbs';
import { watch } from '../db/watch';
import type { ProviderConfig } from '../providers/types';

export type Theme = 'system' | 'light' | 'dark';

export const SETTING_DEFAULTS = {
	theme: 'system' as Theme,
	default_provider: 'offline',
	default_model: 'offline-mini',
	providers: [] as ProviderConfig[],
	'plugins.hook_callback_timeout': 30,
	system_prompt: ''
};

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type SettingValues = typeof SETTING_DEFAULTS;

export class SettingsState {
	values = $state<SettingValues>({ ...SETTING_DEFAULTS });
	loaded = $state(false);
	#db: PalimpsestDb;

	constructor(db: PalimpsestDb) {
		this.#db = db;
	}

	start(): () => void {
		return watch(
			() => readAllSettings(this.#db),
			(stored) => {
				this.values = { ...SETTING_DEFAULTS, ...(stored as Partial<SettingValues>) };
				this.loaded = true;
			}
		);
	}

	get<K extends SettingKey>(key: K): SettingValues[K] {
		return this.values[key];
	}

	async set<K extends SettingKey>(key: K, value: SettingValues[K]): Promise<void> {
		this.values = { ...this.values, [key]: value };
		await writeSetting(this.#db, key, $state.snapshot(value));
	}
}
