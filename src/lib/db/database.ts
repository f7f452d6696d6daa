// The typed Dexie database of one profile. Every schema change is a new version with an
// upgrade function; database.test.ts opens each old version, writes, and reopens.
import Dexie, { type EntityTable, type Table } from 'dexie';
import {
	NO_COMPACTION_STATE,
	type BlobRow,
	type HookLogRow,
	type MessageRow,
	type PluginKvRow,
	type PluginLogRow,
	type PluginRow,
	type PluginUsageRow,
	type PromptRow,
	type AssistantRow,
	type ReceiptRow,
	type SearchIndexRow,
	type SessionRow,
	type SettingRow,
	type SyncDocRow,
	type SyncOutboxRow,
	type SyncTrashRow
} from './schema';
import { guardedOptions, guardVersion } from './version-guard';
import { keepConnection } from './connection-loss';
import { flushUpgrade } from './flush-upgrade';
import { recordWrittenRows } from './committed-changes';
import { dropAllUnusedFrames } from './request-frames';
import { givePositions } from './message-positions';
import { recordOutbox } from './sync-outbox';
import { adoptLegacyProfile } from './legacy-profile';

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

// Version 4: the live context of a session is read through [session_id+active+seq] (O(active
// rows), however many compacted rows a session keeps); the sidebar pages through
// [archived+pinned+last_activity_at]; deletion and archive receipts get their table; every
// session row records its profile and its compaction state.
export const SCHEMA_V4 = {
	...SCHEMA_V3,
	sessions: 'id, session_key, last_activity_at, parent_session_id, archived, pinned, ended_at, [archived+pinned+last_activity_at]',
	messages: '[session_id+seq], id, status, [session_id+active+seq]',
	receipts: 'op_id, at'
};

// Version 5: each plugin's recent ctx.log lines are kept across reloads, read newest first by plugin.
export const SCHEMA_V5 = {
	...SCHEMA_V4,
	plugin_log: '++id, [plugin_id+id]'
};

// Version 6: the full-text search index of the profile, kept as a snapshot the search worker
// loads, catches up and writes back (see search/index-keeper.ts). Derived data: a missing or
// damaged snapshot is rebuilt from the messages.
export const SCHEMA_V6 = {
	...SCHEMA_V5,
	search_index: 'key'
};

// Version 7: answers are indexed by the request frame they refer to (see request-frames.ts), so
// a deletion finds the frames it leaves unused without reading the rows it removes; frames
// that deletions before this version left behind are dropped on the way.
export const SCHEMA_V7 = {
	...SCHEMA_V6,
	messages: '[session_id+seq], id, status, [session_id+active+seq], sent.frame, [session_id+sent.frame]'
};

// Version 8: what each plugin's storage holds is counted in its own table, not on the plugin's
// row, so a plugin's writes change nothing the page follows (see PluginUsageRow).
export const SCHEMA_V8 = {
	...SCHEMA_V7,
	plugin_usage: 'plugin_id'
};

// Version 9: the bytes of images kept with messages (a tool's result), as Blobs, keyed by their
// session first, so deleting a session deletes them with one key range, as its messages.
export const SCHEMA_V9 = {
	...SCHEMA_V8,
	blobs: '[session_id+id]'
};

// Version 10: every message has a position (see message-positions.ts), the same on every device,
// and a synced message finds its row by it; seq stays the order this device shows.
export const SCHEMA_V10 = {
	...SCHEMA_V9,
	messages: '[session_id+seq], id, status, [session_id+active+seq], sent.frame, [session_id+sent.frame], [session_id+position]'
};

// Version 11: what sync knows of each document it sends or receives (its server revision,
// whether this device has an edit to send), and its checkpoint in the server's changes feed.
// This device's own: never synced, never exported.
export const SCHEMA_V11 = {
	...SCHEMA_V10,
	sync_docs: 'id, session_id, [dirty+edit]',
	sync_meta: 'key'
};

// Version 12: a session's rows sort by their rank on every device ([session_id+rank]: where a
// row from another device goes), each row records its version (`branch`), and which rows are
// active is derived from what every device holds alike (conversation.ts). Local changes go to
// sync's outbox in their own transaction; sessions deleted elsewhere wait in sync_trash.
export const SCHEMA_V12 = {
	...SCHEMA_V11,
	messages: '[session_id+seq], id, status, [session_id+active+seq], sent.frame, [session_id+sent.frame], [session_id+position], [session_id+rank]',
	sync_docs: 'id, session_id, [dirty+edit], held',
	sync_outbox: 'id, at',
	sync_trash: 'session_id, at'
};

// Version 13: saved prompts, read by name for the Message box's slash menu (names alone, from
// the index, without their texts).
export const SCHEMA_V13 = {
	...SCHEMA_V12,
	prompts: 'id, name'
};

// Version 14: assistants, listed by name on the Assistants page.
export const SCHEMA_V14 = {
	...SCHEMA_V13,
	assistants: 'id, name'
};

const DB_PREFIX = 'palimpsest-';

/** The profile a database belongs to, from its name (`palimpsest-<profile>`). */
export function profileOfDbName(name: string): string {
	return name.startsWith(DB_PREFIX) ? name.slice(DB_PREFIX.length) : name;
}

export class PalimpsestDb extends Dexie {
	sessions!: EntityTable<SessionRow, 'id'>;
	messages!: Table<MessageRow, [string, number]>;
	settings!: EntityTable<SettingRow, 'key'>;
	plugins!: EntityTable<PluginRow, 'id'>;
	plugin_kv!: Table<PluginKvRow, [string, string]>;
	hook_log!: EntityTable<HookLogRow, 'id'>;
	receipts!: EntityTable<ReceiptRow, 'op_id'>;
	plugin_log!: EntityTable<PluginLogRow, 'id'>;
	search_index!: EntityTable<SearchIndexRow, 'key'>;
	plugin_usage!: EntityTable<PluginUsageRow, 'plugin_id'>;
	blobs!: Table<BlobRow, [string, string]>;
	sync_docs!: EntityTable<SyncDocRow, 'id'>;
	sync_meta!: EntityTable<SettingRow, 'key'>;
	sync_outbox!: EntityTable<SyncOutboxRow, 'id'>;
	sync_trash!: EntityTable<SyncTrashRow, 'session_id'>;
	prompts!: EntityTable<PromptRow, 'id'>;
	assistants!: EntityTable<AssistantRow, 'id'>;

	constructor(name: string, options?: ConstructorParameters<typeof Dexie>[1]) {
		let upgraded = false;
		super(name, guardedOptions(options, (oldVersion) => (upgraded ||= oldVersion > 0)));
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
		this.version(4)
			.stores(SCHEMA_V4)
			.upgrade((tx) => {
				const profile = profileOfDbName(tx.db.name);
				return tx
					.table('sessions')
					.toCollection()
					.modify((row: Partial<SessionRow>) => {
						row.profile ??= profile;
						row.compaction ??= { ...NO_COMPACTION_STATE };
					});
			});
		this.version(5).stores(SCHEMA_V5);
		// Nothing to carry over: the search worker builds the index in the background.
		this.version(6).stores(SCHEMA_V6);
		this.version(7)
			.stores(SCHEMA_V7)
			.upgrade((tx) => dropAllUnusedFrames({ messages: tx.table('messages'), settings: tx.table('settings') }));
		this.version(8)
			.stores(SCHEMA_V8)
			.upgrade(async (tx) => {
				const usage: PluginUsageRow[] = [];
				await tx
					.table('plugins')
					.toCollection()
					.modify((row: PluginRow) => {
						if (typeof row.storage_bytes === 'number') usage.push({ plugin_id: row.id, storage_bytes: row.storage_bytes });
						delete row.storage_bytes;
					});
				await tx.table('plugin_usage').bulkAdd(usage);
			});
		this.version(9).stores(SCHEMA_V9);
		// These rows have never synced: positions from their times, in each session's seq order.
		this.version(10)
			.stores(SCHEMA_V10)
			.upgrade((tx) => givePositions(tx.table('messages')));
		this.version(11).stores(SCHEMA_V11);
		this.version(12)
			.stores(SCHEMA_V12)
			.upgrade((tx) => adoptLegacyProfile(tx));
		// Nothing to carry over: a new table.
		this.version(13).stores(SCHEMA_V13);
		// Nothing to carry over: a new table.
		this.version(14).stores(SCHEMA_V14);
		// Storage faults: no use under older code than the database's or after its deletion (the
		// profile was deleted), a dropped connection reopens on the next use, and a schema
		// upgrade is flushed to disk before first use.
		guardVersion(this, 'close');
		keepConnection(this);
		// Commits of this tab carry the rows they wrote (see committed-changes.ts).
		recordWrittenRows(this);
		// Each local change is recorded for sync in its own transaction (see sync-outbox.ts).
		recordOutbox(this);
		this.on(
			'ready',
			() => {
				if (!upgraded) return;
				upgraded = false;
				return flushUpgrade(this.backendDB(), 'settings');
			},
			true
		);
	}
}

export function profileDbName(profile: string): string {
	return `${DB_PREFIX}${profile}`;
}

export function openProfileDb(
	profile: string,
	options?: ConstructorParameters<typeof Dexie>[1]
): PalimpsestDb {
	return new PalimpsestDb(profileDbName(profile), options);
}

export { Dexie };
