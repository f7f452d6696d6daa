// One setting of the profile, under its key.

export interface SettingRow {
	key: string;
	value: unknown;
}
