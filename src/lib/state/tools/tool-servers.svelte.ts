// The Settings page's tool servers and the turn's way to them: the configured servers (kept in
// the profile's settings, their secrets with them), each one's connection status and sign-in, a
// call's progress, and the question asked before a tool first runs. The SDK and the worker it
// runs in load only once a server is configured; signing in loads only when the user does.
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import type { Approval, ApprovalRequest, ServerTools } from '../../tool-servers/server-tools';
import type { ToolServerWorker } from '../../tool-servers/tool-server-client';
import { openSignInWindow } from '../../tool-servers/sign-in-page';
import type { CallProgress, ServerStatus, StoredOAuth, ToolServerConfig } from '../../tool-servers/types';
import type { SettingsState } from '../settings/settings.svelte';

export type { CallProgress, ServerStatus, ToolServerConfig };

/** A question waiting for the user: run this tool of this server? */
export interface PendingApproval extends ApprovalRequest {
	answer(approval: Approval): void;
}

/** How long after a failure an unreachable server is tried again, at first and at the most. */
const FIRST_RETRY_MS = 5_000;
const LAST_RETRY_MS = 60_000;
/** How long a turn waits for servers still connecting before it goes on without their tools. */
const STARTUP_WAIT_MS = 5_000;

export class ToolServersState {
	status = new SvelteMap<string, ServerStatus>();
	/** Progress of the calls running now, by tool call id. */
	progress = new SvelteMap<string, CallProgress>();
	approval = $state.raw<PendingApproval | null>(null);
	#settings: SettingsState;
	#worker: ToolServerWorker | null = null;
	#tools: ServerTools | undefined;
	#loading: Promise<ServerTools> | null = null;
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- timers, never rendered
	#retries = new Map<string, { timer: ReturnType<typeof setTimeout>; wait: number }>();
	/** The address and header each connection was made with, so a changed one reconnects. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#connectedWith = new Map<string, string>();
	#stopped = false;
	/** The sign-in under way of each server, to stop when another begins. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#signIns = new Map<string, AbortController>();

	constructor(settings: SettingsState) {
		this.#settings = settings;
	}

	get configs(): ToolServerConfig[] {
		return this.#settings.get('tool_servers');
	}

	/** The turn's tools of the servers, once any server is configured (undefined before). */
	serverTools(): ServerTools | undefined {
		return this.#tools;
	}

	/** Follows the configured servers (here and in other tabs) from the moment settings are read; returns the stop. */
	start(): () => void {
		const stopFollowing = $effect.root(() => {
			$effect(() => {
				if (!this.#settings.loaded) return;
				void this.#settings.get('tool_servers');
				untrack(() => this.follow());
			});
		});
		return () => {
			stopFollowing();
			this.stop();
		};
	}

	/**
	 * Settles once no server is still connecting, or after `limitMs`: the first turn after a
	 * reload offers the servers' tools without waiting long for one that is slow to answer.
	 */
	async ready(limitMs = STARTUP_WAIT_MS): Promise<void> {
		const until = Date.now() + limitMs;
		while ([...this.status.values()].some((status) => status.state === 'connecting') && Date.now() < until) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	/** Connects the configured servers, and follows the list as it changes here or in another tab. */
	follow(): void {
		const configs = this.configs;
		for (const config of configs) {
			const key = connectionKey(config);
			if (this.#connectedWith.get(config.id) === key) continue;
			this.#connectedWith.set(config.id, key);
			void this.connect(config.id);
		}
		for (const id of [...this.#connectedWith.keys()]) {
			if (configs.some((config) => config.id === id)) continue;
			this.#forget(id);
		}
	}

	/** Checks the address, stores the server and connects to it; throws a message for the form. */
	async add(input: string, authorization: string): Promise<void> {
		// The address check loads with the first server added, not with the page.
		const { readServerUrl } = await import('../../tool-servers/tool-server-url');
		const url = readServerUrl(input);
		if (this.configs.some((config) => config.url === url)) throw new Error('This tool server is already added.');
		const config: ToolServerConfig = { id: crypto.randomUUID(), url, authorization: authorization.trim(), added_at: Date.now(), disabled_tools: [], always_allowed: [] };
		if (!(await this.#settings.set('tool_servers', [...this.configs, config]))) throw new Error('The tool server could not be saved.');
		this.follow();
	}

	async remove(id: string): Promise<void> {
		this.#forget(id);
		await this.#settings.set('tool_servers', this.configs.filter((config) => config.id !== id));
	}

	setToolEnabled(id: string, tool: string, enabled: boolean): Promise<boolean> {
		return this.#change(id, (config) => ({
			...config,
			disabled_tools: enabled ? config.disabled_tools.filter((name) => name !== tool) : withItem(config.disabled_tools, tool)
		}));
	}

	/** Takes back "Always allow": the tool asks again on its next call. */
	revokeAlways(id: string, tool: string): Promise<boolean> {
		return this.#change(id, (config) => ({ ...config, always_allowed: config.always_allowed.filter((name) => name !== tool) }));
	}

	/** Connects (again) now. */
	async connect(id: string): Promise<void> {
		const config = this.configs.find((c) => c.id === id);
		if (!config || this.#stopped) return;
		this.#clearRetry(id);
		this.status.set(id, { state: 'connecting' });
		const tools = await this.#load();
		// Plain data for the worker (settings are reactive proxies, which cannot be posted).
		const oauth = config.oauth?.tokens ? $state.snapshot(config.oauth) : undefined;
		const status = await this.#worker!.connect({ id, url: config.url, authorization: config.authorization, oauth }, oauth && {
			stored: () => this.configs.find((c) => c.id === id)?.oauth?.tokens,
			// Kept without a reconnect: the connection has them already.
			refreshed: (tokens) =>
				this.#change(id, (c) => {
					const next = { ...c, oauth: { ...c.oauth, tokens } };
					this.#connectedWith.set(id, connectionKey(next));
					return next;
				}),
			ended: (error) => {
				this.status.set(id, { state: 'failed', error, signIn: true });
				this.#tools?.setGone(id);
			}
		});
		// Removed, or changed, while it connected: that answer is not this server's any more.
		if (!this.configs.some((c) => c.id === id && c.url === config.url)) return;
		this.status.set(id, status);
		if (status.state === 'connected') {
			tools.setConnected(id, status.info, status.tools.tools);
			const known = config.info;
			if (known?.name !== status.info.name || known.version !== status.info.version || known.instructions !== status.info.instructions) {
				await this.#change(id, (c) => ({ ...c, info: status.info }));
			}
		} else {
			tools.setGone(id);
			if (status.state === 'failed' && !status.signIn) this.#retryLater(id);
		}
	}

	/**
	 * Signs in to a server in a window of its own; its tokens are kept with it, like an API key,
	 * and it connects with them. A sign-in of the same server still under way (its window closed,
	 * say) is stopped: only the newest one's answer is taken.
	 */
	async signIn(id: string): Promise<void> {
		// Opened in the click itself: later, a pop-up blocker would refuse it. The sign-in loads after.
		const windowId = crypto.randomUUID();
		openSignInWindow(windowId);
		this.#signIns.get(id)?.abort();
		const controller = new AbortController();
		this.#signIns.set(id, controller);
		try {
			const { signIn } = await import('../../tool-servers/sign-in');
			const store = {
				client: () => $state.snapshot(this.configs.find((c) => c.id === id)?.oauth?.client),
				save: (oauth: StoredOAuth) => this.#change(id, (c) => ({ ...c, oauth: { ...c.oauth, ...oauth } }))
			};
			await signIn(windowId, this.configs.find((c) => c.id === id)?.url, store, controller.signal);
		} finally {
			if (this.#signIns.get(id) === controller) this.#signIns.delete(id);
		}
	}

	/** Forgets the server's tokens; it then asks to be signed in again. */
	signOut(id: string): Promise<boolean> {
		return this.#change(id, (config) => ({ ...config, oauth: { client: config.oauth?.client } }));
	}

	stop(): void {
		this.#stopped = true;
		for (const id of [...this.#retries.keys()]) this.#clearRetry(id);
		this.#worker?.close();
		this.#worker = null;
	}

	#forget(id: string): void {
		this.#clearRetry(id);
		this.#connectedWith.delete(id);
		this.status.delete(id);
		this.#tools?.setGone(id);
		void this.#worker?.api.disconnect(id).catch(() => {});
	}

	#retryLater(id: string): void {
		const wait = Math.min((this.#retries.get(id)?.wait ?? FIRST_RETRY_MS / 2) * 2, LAST_RETRY_MS);
		const timer = setTimeout(() => {
			this.#retries.delete(id);
			// While the tab is hidden, the next look comes when it is shown again.
			if (typeof document !== 'undefined' && document.hidden) {
				document.addEventListener('visibilitychange', () => void this.connect(id), { once: true });
				return;
			}
			void this.connect(id);
		}, wait);
		this.#retries.set(id, { timer, wait });
	}

	#clearRetry(id: string): void {
		clearTimeout(this.#retries.get(id)?.timer);
		this.#retries.delete(id);
	}

	#change(id: string, change: (config: ToolServerConfig) => ToolServerConfig): Promise<boolean> {
		return this.#settings.set('tool_servers', this.configs.map((config) => (config.id === id ? change(config) : config)));
	}

	/** The worker and the turn's side of the servers, loaded with the first server. */
	#load(): Promise<ServerTools> {
		this.#loading ??= Promise.all([import('../../tool-servers/tool-server-client'), import('../../tool-servers/server-tools')]).then(([client, { ServerTools }]) => {
			this.#worker = client.startToolServerWorker();
			const worker = this.#worker;
			this.#tools = new ServerTools({
				calls: async () => worker.calls,
				configs: () => this.configs,
				approve: (request, signal) => this.#ask(request, signal),
				allowAlways: (serverId, tool) =>
					this.#change(serverId, (config) => ({ ...config, always_allowed: withItem(config.always_allowed, tool) })),
				timeoutMs: () => Math.max(1, Number(this.#settings.get('tools.call_timeout_seconds')) || 120) * 1000,
				onProgress: (callId, progress) => (progress ? this.progress.set(callId, progress) : this.progress.delete(callId)),
				// A server gone since it connected: its row says so, its tools leave the next request, and it is tried again.
				onCallFailed: (serverId) => void this.connect(serverId)
			});
			return this.#tools;
		});
		return this.#loading;
	}

	/**
	 * Asks the user (the approval dialog answers); a newer question answers an older one "deny",
	 * and a stopped turn takes its question back.
	 */
	#ask(request: ApprovalRequest, signal?: AbortSignal): Promise<Approval> {
		this.approval?.answer('deny');
		return new Promise((resolve) => {
			const pending: PendingApproval = {
				...request,
				answer: (approval) => {
					signal?.removeEventListener('abort', withdraw);
					if (this.approval === pending) this.approval = null;
					resolve(approval);
				}
			};
			const withdraw = () => pending.answer('deny');
			signal?.addEventListener('abort', withdraw, { once: true });
			this.approval = pending;
		});
	}
}

/** What a connection was made with: a change to any of it reconnects. */
function connectionKey(config: ToolServerConfig): string {
	return `${config.url}\u0000${config.authorization}\u0000${JSON.stringify(config.oauth?.tokens ?? null)}`;
}

function withItem(list: readonly string[], item: string): string[] {
	return list.includes(item) ? [...list] : [...list, item];
}
