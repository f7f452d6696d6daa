// The typed Dexie database of one profile. Every schema change is a new version with an
// upgrade function; database.test.ts opens each old version, writes, and reopens.
import Dexie, { type EntityTable, type Table } from 'dexie';
import type {
	HookLogRow,
	MessageRow,
	PluginKvRow,
	PluginRow,
	SessionRow,
	SettingRow
} from './schema';

export const SCHEMA_V1 = {
	sessions: 'id, session_key, last_activity_at, parent_session_id',
	// [session_id+seq] as primary key: deleting a session is one key-range delete.
	messages: '[session_id+seq], id',
	settings: 'key'
};

export const SCHEMA_V2 = {
	...SCHEMA_V1,
	sessions: 'id, session_key, last_activity_at, parent_session_id, archived, pinned',
	plugins: 'id, position, url',
	plugin_kv: '[plugin_id+key], plugin_id',
	hook_log: '++id, at'
};

// The status index lets start-up find answers a closed tab left streaming without scanning
// every message.
export const SCHEMA_V3 = {
	...SCHEMA_V2,
	messages: '[session_id+seq], id, status'
};

export class PalimpsestDb extends Dexie {
	sessions!: EntityTable<SessionRow, 'id'>;
	messages!: Table<MessageRow, [string, number]>;
	settings!: EntityTable<SettingRow, 'key'>;
	plugins!: EntityTable<PluginRow, 'id'>;
	plugin_kv!: Table<PluginKvRow, [string, string]>;
	hook_log!: EntityTable<HookLogRow, 'id'>;

	constructor(name: string, options?: ConstructorParameters<typeof Dexie>[1]) {
		super(name, options);
		this.version(1).stores(SCHEMA_V1);
		this.version(2)
			.stores(SCHEMA_V2)
			.upgrade((tx) =>
				// Version 1 rows may lack the flags that version 2 indexes.
				tx
					.table('sessions')
					.toCollection()
					.modify((row: Partial<SessionRow>) => {
						row.archived ??= 0;
						row.pinned ??= 0;
						row.title_source ??= row.title && row.title !== 'New session' ? 'message' : 'auto';
					})
			);
		this.version(3).stores(SCHEMA_V3);
	}
}

export function profileDbName(profile: string): string {
	return `palimpsest-${profile}`;
}

export function openProfileDb(
	profile: string,
	options?: ConstructorParameters<typeof Dexie>[1]
): PalimpsestDb {
	return new PalimpsestDb(profileDbName(profile), options);
}

export { Dexie };
