// The in-page hook bus: plugins register callbacks by hook name; the app dispatches with the
// method that matches the hook's kind (notify, collect, decide). Plugin code runs via runHook.
import { freezeClone } from './freeze-payload';
import {
	assertHookName,
	type CollectorHookName,
	type DirectiveHookName,
	type HookHandler,
	type HookName,
	type HookPayload,
	type ObserverHookName
} from './hook-map';
import { type HookCallResult, type HookLogEntry, type HookLogger, type Registration, runHook } from './run-hook';
import { summarizePayload } from './summarize-payload';
import { collectInjected, decideToolCall, type InjectedContext, type ToolDecision } from './dispatch-results';

export interface HookBusOptions {
	/** The `plugins.hook_callback_timeout` setting, read on every call. 0 = off. */
	timeoutSeconds?: () => number;
	record?: (entry: HookLogEntry) => void;
	now?: () => number;
	logger?: HookLogger;
}

export interface HookRegistrationInfo {
	plugin_id: string;
	hook: HookName;
}

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_TIMEOUT_SECONDS = 600;

// Accepts a `string`-typed name from untyped plugin code but rejects a mistyped literal.
type WideString<S extends string> = string extends S ? unknown : never;

export class HookBus {
	#registrations: Registration[] = [];
	#seq = 0;
	#loadOrder: string[] = [];
	#observerQueue: Promise<void> = Promise.resolve();
	#firstSeen: string[] = [];
	readonly #timeoutSeconds: () => number;
	readonly #record: (entry: HookLogEntry) => void;
	readonly #now: () => number;
	readonly #logger: HookLogger;

	constructor(options: HookBusOptions = {}) {
		this.#timeoutSeconds = options.timeoutSeconds ?? (() => DEFAULT_TIMEOUT_SECONDS);
		this.#record = options.record ?? (() => {});
		this.#now = options.now ?? (() => Date.now());
		this.#logger = options.logger ?? console;
	}

	/** Adds a callback; returns the undo. Throws on an unknown hook name or a non-function. */
	register<N extends HookName>(pluginId: string, name: N, callback: HookHandler<N>): () => void;
	register<S extends string>(pluginId: string, name: S & WideString<S>, callback: unknown): () => void;
	register(pluginId: string, name: string, callback: unknown): () => void {
		assertHookName(name);
		if (typeof callback !== 'function') {
			throw new TypeError(`Hook "${name}" from plugin "${pluginId}" needs a function, got ${typeof callback}.`);
		}
		if (!this.#firstSeen.includes(pluginId)) this.#firstSeen.push(pluginId);
		const reg: Registration = {
			plugin_id: pluginId,
			hook: name,
			callback: callback as (payload: unknown) => unknown,
			seq: this.#seq++,
			active: true,
			suppressedUntil: -Infinity
		};
		this.#registrations.push(reg);
		return () => this.#remove((r) => r === reg);
	}

	/** Undoes everything the plugin registered (disable, reload, remove). */
	unregisterPlugin(pluginId: string): void {
		this.#remove((r) => r.plugin_id === pluginId);
		this.#firstSeen = this.#firstSeen.filter((id) => id !== pluginId);
	}

	/** Plugin load order; plugins not listed follow, in order of their first registration. */
	setPluginOrder(ids: readonly string[]): void {
		this.#loadOrder = [...ids];
	}

	listRegistrations(): HookRegistrationInfo[] {
		return this.#ordered().map((r) => ({ plugin_id: r.plugin_id, hook: r.hook }));
	}

	/**
	 * Observers: each callback awaited in turn, results ignored, failures logged and skipped.
	 * Dispatches queue behind one another, so callers need not wait (a slow plugin never holds
	 * up the conversation) and plugins still see events in the order they happened.
	 */
	notify<N extends ObserverHookName>(name: N, payload: HookPayload<N>): Promise<void> {
		const base = this.#snapshot(name, payload);
		if (base === undefined) return this.#observerQueue;
		const dispatch = this.#observerQueue.then(async () => {
			for (const reg of this.#ordered(name)) if (reg.active) await this.#run(reg, base);
		});
		this.#observerQueue = dispatch.catch(() => {});
		return dispatch;
	}

	/** Settles when every observer dispatch queued so far has finished. */
	settled(): Promise<void> {
		return this.#observerQueue;
	}

	/** Collectors: the usable text results, in dispatch order, tagged with their plugin. */
	async collect<N extends CollectorHookName>(name: N, payload: HookPayload<N>): Promise<InjectedContext[]> {
		const base = this.#snapshot(name, payload);
		if (base === undefined) return [];
		return collectInjected(this.#ordered(name), base, (reg, current) => this.#run(reg, current));
	}

	/** Directives: first block wins; `args` rewrites chain; a failing callback blocks (fails closed). */
	async decide(name: DirectiveHookName, payload: HookPayload<DirectiveHookName>): Promise<ToolDecision> {
		const base = this.#snapshot(name, payload);
		if (base === undefined) return { block: true, reason: `The ${name} payload could not be copied for plugins.` };
		return decideToolCall(this.#ordered(name), base, (reg, current) => this.#run(reg, current));
	}

	#run(reg: Registration, payload: unknown): Promise<HookCallResult> {
		return runHook(reg, payload, {
			timeoutMs: resolveTimeoutMs(this.#timeoutSeconds()),
			now: this.#now,
			record: this.#record,
			logger: this.#logger,
			summary: summarizePayload(payload)
		});
	}

	// One clone up front: plugins see the state at dispatch time, and an app bug (a payload
	// holding a function or DOM node) is reported once instead of blamed on every plugin.
	#snapshot<P>(name: HookName, payload: P): P | undefined {
		try {
			return freezeClone(payload) as P;
		} catch (error) {
			this.#logger.warn(`[hooks] ${name} payload is not structured-cloneable; no plugin was called`, error);
			return undefined;
		}
	}

	#ordered(name?: HookName): Registration[] {
		const rank = (id: string) => {
			const loaded = this.#loadOrder.indexOf(id);
			return loaded >= 0 ? loaded : this.#loadOrder.length + this.#firstSeen.indexOf(id);
		};
		// A copy: registrations made during a dispatch join the next one, not this one.
		return this.#registrations
			.filter((r) => name === undefined || r.hook === name)
			.sort((a, b) => rank(a.plugin_id) - rank(b.plugin_id) || a.seq - b.seq);
	}

	#remove(matches: (reg: Registration) => boolean): void {
		for (const reg of this.#registrations) if (matches(reg)) reg.active = false;
		this.#registrations = this.#registrations.filter((r) => r.active);
	}
}

/** Seconds from the setting to milliseconds: default 30, 0 (or less) = off, at most 600. */
export function resolveTimeoutMs(seconds: number): number {
	if (typeof seconds !== 'number' || Number.isNaN(seconds)) return DEFAULT_TIMEOUT_SECONDS * 1000;
	if (seconds <= 0) return 0;
	return Math.min(seconds, MAX_TIMEOUT_SECONDS) * 1000;
}
