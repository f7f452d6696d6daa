// The profile's settings as runes. Writes go to the database; reads come back through a
// live query, so other tabs stay in step.
import type { PalimpsestDb } from '../../db/database';
import { readAllSettings, writeSettings } from '../../db/settings-verbs';
import { watch } from '../../db/watch';
import type { ProviderConfig } from '../../providers/types';
import type { ToolServerConfig } from '../../tool-servers/types';
import { describeError } from '../shared/turn-helpers';
import { DEFAULT_TIMEOUT_SECONDS } from '../../hooks/timeouts';
import { DEFAULT_STORAGE_BUDGET_MB } from '../../plugins/plugin-budgets';
import { KEEP_DELETED_DAYS } from '../../sync/keep-deleted-days';
import { MAX_ATTACHMENT_MB } from '../../sync/attachment-limit';

// The hook timeout's bounds, and the plugin budgets, for the fields and rows that show them.
export { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from '../../hooks/timeouts';
export { DEFAULT_STORAGE_BUDGET_MB, LOG_LINES_PER_SECOND, MAX_STORAGE_BUDGET_MB, MAX_WAITING_MESSAGES, MESSAGE_BYTES_PER_SECOND, STORAGE_BYTES_PER_SECOND, storageBudgetBytes } from '../../plugins/plugin-budgets';
export { formatBytes } from '../../hooks/plain-data';

export type Theme = 'system' | 'light' | 'dark';

export interface LearnedLimit {
	window?: number;
	ratio?: number;
}

/** When this profile's sessions were last exported, shown in Settings. */
export interface LastExport {
	at: number;
	sessions: number;
	kind: 'json' | 'markdown';
}

export const SETTING_DEFAULTS = {
	theme: 'system' as Theme,
	default_provider: 'offline',
	default_model: 'offline-mini',
	providers: [] as ProviderConfig[],
	'plugins.hook_callback_timeout': DEFAULT_TIMEOUT_SECONDS,
	/** Megabytes of `ctx.storage` each plugin may use. */
	'plugins.storage_budget_mb': DEFAULT_STORAGE_BUDGET_MB,
	system_prompt: '',
	/** Percent of the context window above which a request is compacted first. */
	'compaction.threshold': 80,
	/** Percent above which a resumed session is compacted before its first new turn. */
	'compaction.hygiene_threshold': 60,
	/** Percent above which the idle pass after a turn compacts. */
	'compaction.idle_threshold': 70,
	'compaction.tail_tokens': 6000,
	'compaction.in_place': true,
	'compaction.micro': false,
	'compaction.micro_every': 4,
	'compaction.prune_min_reclaim': 4000,
	'compaction.native': false,
	/** Automatic compactions append the facts their summary lost, within a tenth of its budget. */
	'compaction.add_lost_facts': true,
	/** Who writes summaries: a model choice key, or '' for the session's own model. */
	'compaction.model': '',
	/** Context windows set by the user, by exact model name. */
	'context.windows': {} as Record<string, number>,
	/** What providers' overflow errors said of a model: its window, and their count over this app's. */
	'context.learned': {} as Record<string, LearnedLimit>,
	'export.last': null as LastExport | null,
	/** Ended, unpinned sessions idle longer than this many days are removed; 0 = never. */
	'sessions.retention_days': 90,
	/** Sessions idle longer than this many days are archived quietly; 0 = never. */
	'sessions.auto_archive_days': 0,
	/** The user's tool servers (MCP), their Authorization headers and sign-ins kept like API keys. */
	tool_servers: [] as ToolServerConfig[],
	/** How long one call of a tool server's tool may take, in seconds. */
	'tools.call_timeout_seconds': 120,
	/** Sync through a CouchDB database: on or off, its URL, and the username for its login (the password is never stored). */
	'sync.enabled': false,
	'sync.server': '',
	'sync.username': '',
	/** Days a deleted session's sync record is kept before it is purged, here and on the server; 0 = for ever. */
	'sync.keep_deleted_days': KEEP_DELETED_DAYS,
	/** Megabytes: a larger image or attachment stays on its device (and is not taken from the server). */
	'sync.max_attachment_mb': MAX_ATTACHMENT_MB,
	/** When this profile was last up to date with the server. */
	'sync.last_at': null as number | null
};

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type SettingValues = typeof SETTING_DEFAULTS;

/** Where the latest write stands, for the Settings page's status line. */
export type SaveStatus = { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; error: string };

export class SettingsState {
	values = $state<SettingValues>({ ...SETTING_DEFAULTS });
	loaded = $state(false);
	save = $state<SaveStatus>({ state: 'idle' });
	#pending = 0;
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

	set<K extends SettingKey>(key: K, value: SettingValues[K]): Promise<boolean> {
		return this.update({ [key]: value } as Partial<SettingValues>);
	}

	/** Removes a provider; a default that pointed at it goes back to the built-in offline model. */
	removeProvider(id: string): Promise<boolean> {
		const patch: Partial<SettingValues> = { providers: this.values.providers.filter((p) => p.id !== id) };
		if (this.values.default_provider === id) {
			patch.default_provider = SETTING_DEFAULTS.default_provider;
			patch.default_model = SETTING_DEFAULTS.default_model;
		}
		return this.update(patch);
	}

	/**
	 * Shows `patch` at once and stores it in one transaction, so keys that belong together
	 * (a default provider and its model) never land half-way. A failed write is reported in
	 * `save` and the values shown before come back. Resolves to whether the write landed.
	 */
	async update(patch: Partial<SettingValues>): Promise<boolean> {
		const before: Partial<SettingValues> = {};
		for (const key of Object.keys(patch) as SettingKey[]) Object.assign(before, { [key]: this.values[key] });
		this.values = { ...this.values, ...patch };
		this.#pending += 1;
		this.save = { state: 'saving' };
		try {
			await writeSettings(this.#db, $state.snapshot(patch) as Record<string, unknown>);
			this.#pending -= 1;
			if (this.#pending === 0 && this.save.state === 'saving') this.save = { state: 'saved' };
			return true;
		} catch (error) {
			this.#pending -= 1;
			this.save = { state: 'failed', error: describeError(error) };
			// Put back what was shown before, unless a later change has replaced it already.
			const restore = Object.entries(before).filter(([key]) => this.values[key as SettingKey] === patch[key as SettingKey]);
			this.values = { ...this.values, ...Object.fromEntries(restore) };
			return false;
		}
	}
}
