// The app's wiring: the profile database, the hook bus, providers and the dependencies of a
// turn, assembled once at start-up and handed to the rune stores.
import type { TurnDeps } from '../../agent/turn-deps';
import { DEFAULT_SYSTEM_PROMPT } from '../../agent/build-request';
import type { PalimpsestDb } from '../../db/database';
import type { ProfileRow } from '../../db/meta-db';
import { getSession, updateSession } from '../../db/session-verbs';
import type { HookBus } from '../../hooks/hook-bus';
import type { CommandRegistry } from '../../commands/command-registry';
import type { ToolRegistry } from '../../plugins/plugin-tools';
import type { ServerTools } from '../../tool-servers/server-tools';
import { withServerInstructions } from '../../tool-servers/server-instructions';
import { combineTools, type ToolsOff } from '../../agent/turn-tools';
import { PRESETS } from '../../providers/presets';
import { modelLabel, providerName } from '../../providers/provider-name';
import { loadCode } from '../chat/turn-code';
import { imageApiOf, readsImages, type Provider } from '../../providers/types';
import type { SessionContext } from '../../sessions/session-context';
import { ContextWorker, type ContextWorkerStatus } from '../../context/context-client';
import { contextWindowFor, reservedOutputFor } from '../../context/context-window';
import { localModelWindows } from '../../providers/local-model/local-model-windows';
import { estimateMessages, estimateSession, imageTokensOf, type RequestExtras } from '../../context/estimate-session';
import { toolTexts } from '../../context/tool-texts';
import { anchoredTotal } from '../../context/anchor-estimate';
import { contextRows } from '../../db/context-rows';
import type { ChatSettings, MessageRow, NamedProvider, SessionRow } from '../../db/schema';
import { composeEstimate } from '../../context/count-tokens';
import type { ContextUsage } from '../compaction/context-usage';
import type { CompactionDeps, CompactionProgress, CompactionSettings } from '../../agent/compaction-types';
import type { SettingsState } from '../settings/settings.svelte';
import { missingProviderError } from '../providers/missing-provider';

export const PLATFORM = 'web';
export const OFFLINE_PROVIDER_ID = 'offline';
export const OFFLINE_MODEL = 'offline-mini';
const OFFLINE_LABEL = PRESETS.offline.label;

/** One string for a provider and model, as a <select> value. */
export const choiceKey = (choice: ModelChoice): string => `${choice.provider}\u0000${choice.model}`;

export function parseChoiceKey(key: string): ModelChoice {
	const [provider, model] = key.split('\u0000');
	return { provider, model };
}


/** A session's model and what its provider was called (see SessionRow.named_provider). */
type SessionModel = Pick<SessionRow, 'provider' | 'model' | 'named_provider'>;

export interface ModelChoice {
	provider: string;
	model: string;
}

export interface ModelOption extends ModelChoice {
	label: string;
	/** The provider's name, for other models of it. */
	providerLabel: string;
	offline: boolean;
}

export interface Services {
	db: PalimpsestDb;
	profile: ProfileRow;
	hooks: HookBus;
	settings: SettingsState;
	sessionContext(): SessionContext;
	/** `resumed`: the first turn since a stored session was opened (the hygiene check applies). */
	turnDeps(sessionId: string, options?: { resumed?: boolean; onProgress?: (progress: CompactionProgress) => void }): Promise<TurnDeps>;
	/** The provider and model to use: the requested one if it still exists, else the default. */
	currentModel(wanted?: Partial<ModelChoice>): ModelChoice;
	/** A configured provider's id with its name, server and kind, as a session records it (undefined for the offline model or an unknown id). */
	namedProvider(providerId: string): NamedProvider | undefined;
	/** Whether the model of `choice` reads images (the offline model, the in-browser one and those marked text only do not). */
	readsImages(choice: ModelChoice): boolean;
	modelOptions(): ModelOption[];
	pluginName(pluginId: string): string;
	/** The context worker: counting, planning and the extractive summary, off the main thread. */
	worker: ContextWorker;
	/** Recounts what is new in a session (in the worker) and stores its token estimate. */
	refreshTokens(sessionId: string): Promise<void>;
	/**
	 * What the next request costs, part by part: of a session (its total stored too, so the
	 * meter shows the same), or of a new session with `model` (and the settings it will start
	 * with, `chat`) when `sessionId` is null.
	 */
	contextUsage(sessionId: string | null, model?: string, chat?: ChatSettings): Promise<ContextUsage | null>;
	/**
	 * What the session's next request would cost with `rows` as its context (the rows an undo
	 * would leave, say), on the same scale as the meter, with the window it must fit.
	 */
	estimateContext(sessionId: string, rows: MessageRow[]): Promise<{ model: string; total: number; windowTokens: number } | null>;
	/** The model's context window (Settings may override the built-in table). */
	windowFor(model: string): number;
	/** Settings' compaction, as a chat with these settings (its own threshold, or off) has it. */
	compactionSettings(chat?: ChatSettings): CompactionSettings;
	/**
	 * Who writes the title of a session after its first answer: the Compaction model when Settings
	 * names one, else the session's own; null for a model that runs in this tab (the built-in
	 * offline model, the in-browser one) or a provider that is not set up here.
	 */
	titleWriter(session: Pick<SessionRow, 'provider' | 'model'>): Promise<{ provider: Provider; model: string } | null>;
	/** Everything a compaction of this session needs. */
	compactionDeps(sessionId: string, onProgress?: (progress: CompactionProgress) => void): Promise<CompactionDeps>;
	tools?: ToolRegistry;
	commands?: CommandRegistry;
	/** Settles once enabled plugins had their first chance to load. */
	pluginsReady?: () => Promise<void>;
}

export function createServices(parts: {
	db: PalimpsestDb;
	profile: ProfileRow;
	hooks: HookBus;
	settings: SettingsState;
	pluginName?: (id: string) => string;
	tools?: ToolRegistry;
	commands?: CommandRegistry;
	pluginsReady?: () => Promise<void>;
	onWorkerStatus?: (status: ContextWorkerStatus) => void;
	/** The connected tool servers' tools, once a server is configured. */
	serverTools?: () => ServerTools | undefined;
	/** Settles once configured tool servers had their first chance to connect (bounded). */
	toolServersReady?: () => Promise<void>;
}): Services {
	const { db, profile, hooks, settings } = parts;
	const worker = new ContextWorker({ onStatus: parts.onWorkerStatus });
	let offline: Provider | undefined;

	/**
	 * The provider to call. Its adapter loads on first use (the first message, compaction or
	 * test in Settings), not with the page: the Message box is ready sooner.
	 */
	async function providerFor(choice: SessionModel): Promise<Provider> {
		const id = choice.provider;
		if (id === OFFLINE_PROVIDER_ID) {
			const { createOfflineProvider } = await loadCode(() => import('../../providers/offline'));
			// The offline model reports exact usage, counted by the same worker as everything else.
			offline ??= createOfflineProvider({ countTokens: async (texts) => (await worker.countTexts(texts, OFFLINE_MODEL)).counts });
			return offline;
		}
		const config = settings.get('providers').find((p) => p.id === id);
		// Named as the user called it, never by its id.
		if (!config) throw new Error(missingProviderError(choice));
		const { createProvider } = await loadCode(() => import('../../providers/create-provider'));
		return createProvider(config);
	}

	/** The tools a chat leaves out: its tool servers by their ids here (it names them by address). */
	function toolsOff(chat?: ChatSettings): ToolsOff | undefined {
		if (!chat?.plugin_tools_off && !chat?.tool_servers_off) return undefined;
		const urls = new Set(chat.tool_servers_off);
		return { plugins: new Set(chat.plugin_tools_off), servers: new Set(settings.get('tool_servers').flatMap((s) => (urls.has(s.url) ? [s.id] : []))) };
	}

	/** What is sent as the system prompt: the chat's, else the setting (or the built-in one), then each of its tool servers' instructions. */
	const systemPrompt = (chat?: ChatSettings) => {
		const off = toolsOff(chat)?.servers;
		return withServerInstructions(chat?.system_prompt || settings.get('system_prompt') || DEFAULT_SYSTEM_PROMPT, parts.serverTools?.()?.instructions(off?.size ? (id) => !off.has(id) : undefined) ?? []);
	};

	/** The plugins' and the tool servers' tools the chat uses, or undefined when there are none. */
	const turnTools = (chat?: ChatSettings) => combineTools(services.tools, parts.serverTools?.(), toolsOff(chat));

	/** Windows providers stated in their overflow errors, by model. */
	const learnedWindows = () => Object.fromEntries(Object.entries(settings.get('context.learned')).flatMap(([model, learned]) => (learned.window ? [[model, learned.window]] : [])));
	// An in-browser model's window is the context it is loaded with (from its GGUF); a window
	// the user set for the model's name still wins.
	const windowFor = (model: string) => contextWindowFor(model, { ...localModelWindows(settings.get('providers')), ...settings.get('context.windows') }, learnedWindows());

	/** Keeps what a provider's overflow error said of a model, for every later request to it. */
	function learnLimit(model: string, learned: { window: number | null; ratio: number | null }): void {
		const known = settings.get('context.learned');
		const next = { ...known[model], ...(learned.window ? { window: learned.window } : {}), ...(learned.ratio ? { ratio: learned.ratio } : {}) };
		void settings.set('context.learned', { ...known, [model]: next });
	}

	/** What every request of the session adds around its messages. */
	function requestExtras(model: string, provider?: string, chat?: ChatSettings): RequestExtras {
		const config = settings.get('providers').find((p) => p.id === provider);
		return { systemPrompt: systemPrompt(chat), toolSchemas: turnTools(chat)?.schemas(), reservedOutput: reservedOutputFor(windowFor(model)), imageApi: config ? imageApiOf(config) : 'offline' };
	}

	function compactionSettings(chat?: ChatSettings): CompactionSettings {
		const percent = (key: 'compaction.threshold' | 'compaction.hygiene_threshold' | 'compaction.idle_threshold') =>
			Math.min(0.99, Math.max(0.05, Number(settings.get(key)) / 100));
		// A chat of its own threshold compacts at it before requests, between turns and when resumed alike.
		const own = typeof chat?.compaction === 'number' ? chat.compaction / 100 : undefined;
		return {
			automatic: chat?.compaction !== 'off',
			threshold: own ?? percent('compaction.threshold'),
			hygieneThreshold: own ?? percent('compaction.hygiene_threshold'),
			idleThreshold: own ?? percent('compaction.idle_threshold'),
			tailTokens: Math.max(0, Number(settings.get('compaction.tail_tokens'))),
			inPlace: settings.get('compaction.in_place') !== false,
			micro: settings.get('compaction.micro') === true,
			microEvery: Math.max(1, Number(settings.get('compaction.micro_every'))),
			pruneMinReclaim: Math.max(0, Number(settings.get('compaction.prune_min_reclaim'))),
			native: settings.get('compaction.native') === true,
			addLostFacts: settings.get('compaction.add_lost_facts') !== false
		};
	}

	async function summarizerFor(fallback: SessionModel): Promise<CompactionDeps['summarizer']> {
		const key = settings.get('compaction.model');
		const choice = key ? parseChoiceKey(key) : fallback;
		const option = modelOptions().find((o) => o.provider === choice.provider && o.model === choice.model) ?? fallback;
		return { provider: await providerFor(option), model: option.model, windowTokens: windowFor(option.model) };
	}

	function modelOptions(): ModelOption[] {
		return [
			{ provider: OFFLINE_PROVIDER_ID, model: OFFLINE_MODEL, label: modelLabel(OFFLINE_MODEL, OFFLINE_LABEL), providerLabel: OFFLINE_LABEL, offline: true },
			...settings.get('providers').map((p) => {
				const name = providerName(p);
				return { provider: p.id, model: p.model, label: modelLabel(p.model, name), providerLabel: name, offline: false };
			})
		];
	}

	const services: Services = {
		db,
		profile,
		hooks,
		settings,
		tools: parts.tools,
		commands: parts.commands,
		pluginsReady: parts.pluginsReady,
		sessionContext: () => ({ db, hooks, profile: profile.name, platform: PLATFORM }),
		pluginName: (id) => parts.pluginName?.(id) ?? id,
		modelOptions,
		worker,
		windowFor,
		compactionSettings,
		async refreshTokens(sessionId) {
			try {
				await services.contextUsage(sessionId);
			} catch (error) {
				console.warn('Could not update the token estimate', error);
			}
		},
		async contextUsage(sessionId, model, draft) {
			const session = sessionId === null ? null : await getSession(db, sessionId);
			if (sessionId !== null && !session) return null;
			const current = session ? null : services.currentModel();
			const chosen = session?.model ?? model ?? current!.model;
			const chat = session ? session.chat_settings : draft;
			const extras = requestExtras(chosen, session?.provider ?? current!.provider, chat);
			const windowTokens = windowFor(chosen);
			const threshold = compactionSettings(chat).threshold;
			if (!session) {
				const [systemPrompt, ...tools] = (await worker.countTexts([extras.systemPrompt, ...toolTexts(extras.toolSchemas)], chosen)).counts;
				const toolSchemas = tools.reduce((a, b) => a + b, 0);
				const parts = composeEstimate({ messages: 0, messageCount: 0, systemPrompt, hasSystemPrompt: true, toolSchemas, injected: 0, reservedOutput: extras.reservedOutput });
				return { model: chosen, total: parts.total, windowTokens, threshold, parts, rows: 0 };
			}
			const estimate = await estimateSession(db, worker, session.id, chosen, extras);
			if (!estimate) return null;
			// Counts that could not be stored are logged, and stored again by the next estimate.
			await estimate.stored.catch(() => {});
			return { model: chosen, total: estimate.total, windowTokens, threshold, parts: estimate.parts, rows: estimate.rows, ratio: estimate.ratio };
		},
		async estimateContext(sessionId, rows) {
			const session = await getSession(db, sessionId);
			if (!session) return null;
			const extras = requestExtras(session.model, session.provider, session.chat_settings);
			const context = contextRows(rows);
			const estimate = await worker.estimate({ ...extras, messages: estimateMessages(context, session.model) }, session.model);
			// Images count too: undoing a compaction that stopped sending them sends them again.
			const total = anchoredTotal({ total: estimate.total + (await imageTokensOf(context, extras.imageApi)), reservedOutput: estimate.reservedOutput }, session.token_ratio);
			return { model: session.model, total, windowTokens: windowFor(session.model) };
		},
		async compactionDeps(sessionId, onProgress) {
			const session = await getSession(db, sessionId);
			if (!session) throw new Error('This session no longer exists.');
			const provider = await providerFor(session);
			const windowTokens = windowFor(session.model);
			const compaction = compactionSettings(session.chat_settings);
			// The kept tail never takes more than a quarter of the window, whatever the setting says.
			compaction.tailTokens = Math.min(compaction.tailTokens, Math.floor(windowTokens / 4));
			return {
				db,
				counter: worker,
				provider,
				model: session.model,
				summarizer: await summarizerFor(session),
				hooks,
				sessions: services.sessionContext(),
				settings: compaction,
				windowTokens,
				request: requestExtras(session.model, session.provider, session.chat_settings),
				onProgress,
				onLimitLearned: learnLimit,
				toolOwner: (name) => {
					const id = parts.tools?.ownerOf(name);
					return id === undefined ? undefined : { id, name: services.pluginName(id) };
				}
			};
		},
		async titleWriter(session) {
			const key = settings.get('compaction.model');
			const choice = key ? parseChoiceKey(key) : session;
			const option = modelOptions().find((o) => o.provider === choice.provider && o.model === choice.model) ?? session;
			const config = settings.get('providers').find((p) => p.id === option.provider);
			if (!config || config.preset === 'wllama' || config.preset === 'offline') return null;
			return { provider: await providerFor({ provider: option.provider, model: option.model }), model: option.model };
		},
		namedProvider(id) {
			const config = settings.get('providers').find((p) => p.id === id);
			return config && { id, name: providerName(config), base_url: config.base_url, preset: config.preset };
		},
		readsImages(choice) {
			const config = settings.get('providers').find((p) => p.id === choice.provider);
			return config !== undefined && readsImages(config);
		},
		currentModel(wanted = {}) {
			const options = modelOptions();
			// Any model of a configured provider will do: the picker offers what each provider lists.
			const find = (c: Partial<ModelChoice>) => {
				const option = options.find((o) => o.provider === c.provider);
				return option ? { provider: option.provider, model: c.model || option.model } : undefined;
			};
			const chosen =
				find(wanted) ??
				find({ provider: settings.get('default_provider'), model: settings.get('default_model') }) ??
				options[0];
			return { provider: chosen.provider, model: chosen.model };
		},
		async turnDeps(sessionId, options = {}) {
			const session = await getSession(db, sessionId);
			if (!session) throw new Error('This session no longer exists.');
			const provider = await providerFor(session);
			// A provider that once said how its count differs from this app's is believed from the first turn.
			const ratio = settings.get('context.learned')[session.model]?.ratio;
			// The provider's name as it is now (renamed, or never recorded), should it go away later.
			const named = services.namedProvider(session.provider);
			const renamed = named && JSON.stringify(named) !== JSON.stringify(session.named_provider);
			const changes = { ...(session.token_ratio === undefined && ratio ? { token_ratio: ratio } : {}), ...(renamed ? { named_provider: named } : {}) };
			if (Object.keys(changes).length) await updateSession(db, sessionId, changes);
			// A plugin's pre_llm_call must not miss the first turn after a reload, but a plugin
			// still loading after a few seconds is not worth holding the conversation for (the wait
			// is bounded once, at start-up: see STARTUP_PLUGIN_WAIT_MS).
			await Promise.all([services.pluginsReady?.(), parts.toolServersReady?.()]);
			const chat = session.chat_settings;
			const tools = turnTools(chat);
			const compaction = await services.compactionDeps(sessionId, options.onProgress);
			const { createTurnCompaction } = await loadCode(() => import('../../agent/compaction-gates'));
			return {
				db,
				provider,
				model: session.model,
				profile: profile.name,
				platform: PLATFORM,
				hooks,
				tools,
				systemPrompt: systemPrompt(chat),
				params: chat && { temperature: chat.temperature, top_p: chat.top_p, max_tokens: chat.max_tokens, reasoning_effort: chat.reasoning_effort },
				pluginName: services.pluginName,
				counter: compaction.counter,
				compaction: createTurnCompaction(compaction, { resumed: options.resumed ?? false })
			};
		}
	};
	return services;
}
