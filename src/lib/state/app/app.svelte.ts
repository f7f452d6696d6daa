// The root store: opens the active profile at start-up (or says why it cannot, see
// StartupFailure), repairs answers a closed tab left streaming, and builds the stores the UI reads.
import { goto } from '$app/navigation';
import { untrack } from 'svelte';
import { openProfileDb, type PalimpsestDb } from '../../db/database';
import { probeConnection } from '../../db/connection-loss';
import { onDatabaseOutdated, onUpgradeBlocked } from '../../db/version-guard';
import { watchInterruptedAnswers } from '../../sessions/repair-interrupted';
import type { StartupFailure } from './startup-failure';
import type { StartupRescue } from './startup-rescue.svelte';
import { loadActiveProfile, MetaDb, type ProfileRow } from '../../db/meta-db';
import { HookBus } from '../../hooks/hook-bus';
import { thisTab } from '../../sessions/tab-presence';
import { resolveTimeoutMs } from '../../hooks/timeouts';
import { CommandRegistry } from '../../commands/command-registry';
import { deferredHost, registerBuiltins, type BuiltinHost } from '../../commands/builtins';
import { createHookLogWriter } from '../../plugins/hook-log-writer';
import { ToolRegistry } from '../../plugins/plugin-tools';
import { PluginHostLoader } from '../plugins/plugin-host-loader';
import { PluginsState } from '../plugins/plugins.svelte';
import { ChatState } from '../chat/chat.svelte';
import { createServices, type Services } from './services';
import { ConfirmState } from '../shared/confirm.svelte';
import { MaintenanceState } from '../sessions/maintenance.svelte';
import { SessionsState } from '../sessions/sessions.svelte';
import type { ToolServersState } from '../tools/tool-servers.svelte';
import { SettingsState, storageBudgetBytes } from '../settings/settings.svelte';
import { CompactionsState } from '../compaction/compaction.svelte';
import { ModelListState } from '../providers/model-list.svelte';
import type { ContextWorkerStatus } from '../../context/context-client';
import { ProfilesState } from '../settings/profiles.svelte';
import { TransferState } from '../settings/transfer.svelte';
import { watchDeletion } from '../../db/watch-deletion';
import { StoragePersistence } from '../settings/storage-persistence.svelte';
import { installTrustedTypesPolicy } from './trusted-types';
import type { SyncState } from '../sync/sync.svelte';
import { PromptNames } from '../prompts/prompt-names.svelte';

export class AppState {
	/** 'blocked': this tab's upgrade of the data waits for another tab to close it. */
	status = $state<'loading' | 'blocked' | 'ready' | 'failed'>('loading');
	/** Why the data cannot be opened (failed) or not yet (blocked), with the page's actions. */
	failure = $state.raw<StartupFailure | null>(null);
	rescue = $state.raw<StartupRescue | null>(null);
	/** Another tab upgraded the data to a newer version: this tab closed its connection and must reload. */
	outdated = $state(false);
	services!: Services;
	settings!: SettingsState;
	sessions!: SessionsState;
	chat!: ChatState;
	/** The saved prompts' names, for the slash menu (read from the first "/" typed). */
	promptNames!: PromptNames;
	plugins!: PluginsState;
	/** Tool servers: their state loads with the plugins, after the Message box is ready (or when Settings asks first). */
	toolServers = $state.raw<ToolServersState | undefined>(undefined);
	loadToolServers!: () => Promise<ToolServersState>;
	compactions!: CompactionsState;
	/** The models each provider offers, for the Model picker. */
	models!: ModelListState;
	/** Whether token estimates are available ('unavailable' while the worker is being replaced). */
	contextStatus = $state<ContextWorkerStatus>('idle');
	/** Bumped when a plugin's tool comes or goes: what every request costs changed, and the meter counts again. */
	toolsVersion = $state(0);
	profiles!: ProfilesState;
	transfer!: TransferState;
	/** Asked on the first message (see Composer), shown in Settings. */
	persistence = new StoragePersistence();
	confirm = new ConfirmState();
	maintenance!: MaintenanceState;
	/** Sync's state, once sync is on or Settings asked for it (its code loads only then). */
	sync = $state.raw<SyncState | null>(null);
	loadSync!: () => Promise<SyncState>;
	#stops: Array<() => void> = [];

	async start(): Promise<void> {
		let stage: 'meta' | 'profile' = 'meta';
		let profileName: string | null = null;
		// The failure page's code loads only when it is needed: it is no part of a normal start.
		const fail = async (describe: (words: typeof import('./startup-failure')) => StartupFailure) => {
			try {
				const [words, { StartupRescue }] = await Promise.all([import('./startup-failure'), import('./startup-rescue.svelte')]);
				const failure = describe(words);
				this.failure = failure;
				this.rescue = new StartupRescue(failure);
			} catch (error) {
				// Not even the page that explains could load (offline, before the app was cached).
				console.error(error);
			}
		};
		this.#stops.push(
			onUpgradeBlocked(async () => {
				if (this.status !== 'loading') return;
				await fail((words) => words.blockedFailure(stage, profileName));
				if (this.status === 'loading') this.status = 'blocked';
			}),
			onDatabaseOutdated(() => (this.outdated = true))
		);
		try {
			const meta = new MetaDb();
			const profile = await loadActiveProfile(meta);
			stage = 'profile';
			profileName = profile.name;
			const db = openProfileDb(profile.name);
			await db.open();
			this.failure = this.rescue = null;
			this.#build(db, profile);
			this.#buildProfiles(meta, db, profile);
			this.status = 'ready';
			void this.persistence.check();
			// Answers a closed tab left streaming, now and from now on; a repair that fails never stops the app.
			this.#stops.push(watchInterruptedAnswers({ db, profile: profile.name }, { skip: (id) => this.chat.unsaved.hasSession(id) }));
			this.#stops.push(watchReturn(() => Promise.all([probeConnection(db, 'settings'), probeConnection(meta, 'meta')])));
		} catch (error) {
			await fail((words) => words.describeStartupFailure(error, stage, profileName));
			this.status = 'failed';
		}
	}

	#build(db: PalimpsestDb, profile: ProfileRow): void {
		this.settings = new SettingsState(db);
		const timeoutSeconds = () => Number(this.settings.get('plugins.hook_callback_timeout'));
		const timeoutMs = () => resolveTimeoutMs(timeoutSeconds());
		// With no host (no plugin has needed it yet) there is no broker, and no plugin to check.
		const hookLog = createHookLogWriter(db, () => {
			const broker = host.current?.broker?.running();
			return broker ? (rows) => broker.writeHookLog(rows) : null;
		});
		// A call that timed out makes the host check that the plugin's code still answers.
		// Every plugin runs isolated, sharing nothing with another: the bus need not wait for
		// one plugin before calling the next.
		const hooks = new HookBus({
			timeoutSeconds,
			record: hookLog.record,
			onTimeout: (target) => void host.current?.checkResponsive(target.plugin_id, target.hook),
			concurrentPlugins: true
		});
		const commands = new CommandRegistry(hooks);
		const tools = new ToolRegistry(hooks);
		this.#stops.push(tools.subscribe(() => this.toolsVersion++));
		const storageBudget = () => storageBudgetBytes(Number(this.settings.get('plugins.storage_budget_mb')));
		// The host's code loads with the first plugin that runs (the bus, commands and tools above serve it then).
		const host = new PluginHostLoader(() =>
			import('../../plugins/create-plugin-host').then(({ createPluginHost }) =>
				createPluginHost({
					db, hooks, commands, tools, timeoutMs, storageBudget,
					onStopped: (id, reason, unresponsive) => this.plugins.noteStopped(id, reason, unresponsive)
				})
			)
		);
		this.plugins = new PluginsState({ db, host, hooks, safeMode: isSafeMode(), hookDetails: hookLog.detail });
		let loadingToolServers: Promise<ToolServersState> | null = null;
		this.loadToolServers = () =>
			(loadingToolServers ??= import('../tools/tool-servers.svelte').then(({ ToolServersState }) => {
				const servers = new ToolServersState(this.settings);
				this.#stops.push(servers.start());
				return (this.toolServers = servers);
			}));
		let loadingSync: Promise<SyncState> | null = null;
		this.loadSync = () =>
			(loadingSync ??= import('../sync/sync-host').then(({ createSyncState }) => {
				const sync = createSyncState(this.settings, profile.name);
				this.#stops.push(() => sync.close());
				return (this.sync = sync);
			}));
		this.services = createServices({
			serverTools: () => this.toolServers?.serverTools(),
			toolServersReady: () => this.loadToolServers().then((servers) => servers.ready()),
			db,
			profile,
			hooks,
			settings: this.settings,
			commands,
			tools,
			pluginName: (id) => this.plugins.name(id),
			pluginsReady: () => this.plugins.settled(),
			onWorkerStatus: (status) => (this.contextStatus = status)
		});
		this.compactions = new CompactionsState(this.services, (from, to) => this.chat.followRotation(from, to));
		this.models = new ModelListState(this.services);
		// The commands are listed at once; what they do loads with the first one run.
		let builtinHost: Promise<BuiltinHost> | null = null;
		const loadBuiltinHost = () =>
			(builtinHost ??= import('../chat/command-host').then(({ createBuiltinHost }) =>
				createBuiltinHost(
					this.services,
					(id) => this.chat.noteFinalized(id),
					this.compactions,
					(request) => this.confirm.ask(request),
					() => this.services.currentModel(this.chat.draft).model
				)
			));
		registerBuiltins(commands, deferredHost(loadBuiltinHost));
		this.sessions = new SessionsState(this.services, () => ({
			sessionId: this.chat.sessionId,
			finalizeOpen: () => this.chat.finalizeOpen(),
			leave: () => goto('/')
		}));
		this.chat = new ChatState(this.services, this.compactions);
		this.promptNames = new PromptNames(db);
		this.#stops.push(() => this.promptNames.stop());
		this.maintenance = new MaintenanceState(this.services, () => this.chat.sessionId);
		this.#stops.push(
			this.settings.start(),
			this.sessions.start(),
			() => this.chat.close(),
			() => this.services.worker.dispose(),
			this.maintenance.start()
		);
		// Plugins (and tool servers) load after the first paint (or soon, in a tab that paints nothing while hidden);
		// the first turn waits for them a few seconds at most (STARTUP_PLUGIN_WAIT_MS).
		let pluginsStarted = false;
		const startPlugins = () => {
			if (pluginsStarted || this.status === 'failed') return;
			pluginsStarted = true;
			// Tool servers connect then too: their client loads after the Message box is ready.
			this.#stops.push(this.plugins.start(), this.#followSync());
			void this.loadToolServers();
			// Hooks a closed tab committed but never dispatched fire once the plugins are loaded (not in safe mode: they would go unheard).
			thisTab();
			if (!isSafeMode()) {
				void this.plugins
					.settled()
					.then(() => import('../../sessions/replay-unfired-hooks'))
					.then(({ replayUnfiredHooks }) => replayUnfiredHooks(db, hooks))
					.catch(() => {});
			}
		};
		requestAnimationFrame(() => setTimeout(startPlugins, 0));
		setTimeout(startPlugins, 100);
		// Stopped first (a profile switch at once): no plugin starts after that.
		this.#stops.push(() => (pluginsStarted = true));
		this.#stops.push(watchPageExit(
				() => {
					this.chat.finalizeOpen();
					// Hook calls still waiting for their batch are saved before the tab goes.
					void hookLog.flush(true);
				},
				() => this.chat.resume()
			));
	}

	/** Loads sync once it is on (here or in another tab), and hands it the stored settings as they change. */
	#followSync(): () => void {
		return $effect.root(() => {
			$effect(() => {
				const settings = this.settings;
				if (!settings.loaded) return;
				const config = settings.get('sync.enabled') ? { server: settings.get('sync.server'), username: settings.get('sync.username') } : null;
				untrack(() => (config ? void this.loadSync().then((sync) => sync.follow(config)) : this.sync?.follow(null)));
			});
		});
	}

	/** Profiles and export/import. A profile deleted in another tab sends this tab to the root profile. */
	#buildProfiles(meta: MetaDb, db: PalimpsestDb, profile: ProfileRow): void {
		this.profiles = new ProfilesState(meta, profile, {
			working: () => this.chat.running.size > 0,
			leave: () => {
				this.stop();
				db.close();
			},
			reload: () => location.reload()
		});
		this.transfer = new TransferState({
			db,
			settings: this.settings,
			profile: () => ({ id: profile.name, label: this.profiles.currentLabel })
		});
		this.#stops.push(this.profiles.start(), watchDeletion(db, () => location.reload()));
	}

	stop(): void {
		for (const stop of this.#stops.splice(0)) stop();
	}
}

function isSafeMode(): boolean {
	return new URLSearchParams(location.search).get('safe') === '1';
}

/** Calls `onExit` when the tab is hidden or closed: the last chance plugins get to flush. */
function watchPageExit(onExit: () => void, onReturn: () => void): () => void {
	const onVisibility = () => (document.visibilityState === 'hidden' ? onExit() : onReturn());
	document.addEventListener('visibilitychange', onVisibility);
	window.addEventListener('pagehide', onExit);
	return () => {
		document.removeEventListener('visibilitychange', onVisibility);
		window.removeEventListener('pagehide', onExit);
	};
}

/**
 * Calls `onReturn` when the tab is shown again: a browser may drop a background tab's database
 * connection, and finding that out now replaces it before the user's next action needs it.
 */
function watchReturn(onReturn: () => unknown): () => void {
	const onVisibility = () => {
		if (document.visibilityState === 'visible') void onReturn();
	};
	document.addEventListener('visibilitychange', onVisibility);
	return () => document.removeEventListener('visibilitychange', onVisibility);
}

// Before anything makes a worker or a plugin frame.
installTrustedTypesPolicy();

export const app = new AppState();
