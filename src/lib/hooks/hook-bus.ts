// The in-page hook bus: plugins register callbacks by hook name; the app dispatches with the
// method that matches the hook's kind (notify, collect, decide). Plugin code runs via runHook.
import { freezeClone } from './freeze-payload';
import {
	assertHookKind,
	assertHookName,
	HOOK_KINDS,
	type CollectorHookName,
	type DirectiveHookName,
	type HookHandler,
	type HookKind,
	type HookName,
	type HookPayload,
	type ObserverHookName
} from './hook-map';
import {
	type HookCallResult,
	type HookLogEntry,
	type HookLogger,
	type PluginCaller,
	type PluginCallOptions,
	type PluginCallTarget,
	type Registration,
	type RunHookContext,
	runHook,
	runPluginCall
} from './run-hook';
import { previewValue } from './preview-value';
import { summarizePayload } from './summarize-payload';
import { catchUpLimitMs, DEFAULT_TIMEOUT_SECONDS, resolveTimeoutMs, waitAtMost } from './timeouts';
import { collectInjected, decideToolCall, eachPluginInTurn, joinInjected, type InjectedContext, type ToolDecision } from './dispatch-results';

export interface HookBusOptions {
	/** The `plugins.hook_callback_timeout` setting, read on every call. 0 = off. */
	timeoutSeconds?: () => number;
	record?: (entry: HookLogEntry) => void;
	now?: () => number;
	logger?: HookLogger;
	/** Told of every plugin call that timed out (an isolated plugin's host then checks on it). */
	onTimeout?: (target: PluginCallTarget) => void;
	/**
	 * Observers and collectors call the plugins without waiting for one another. Only for
	 * plugins that share nothing (each isolated in its own context), for which it changes
	 * nothing but the time a dispatch takes: each plugin's callbacks still run in their order,
	 * one at a time, each plugin still gets events in the order they were raised, and
	 * collector texts keep the load order. Directives always run in turn (each sees the args
	 * the previous one returned).
	 */
	concurrentPlugins?: boolean;
}

export interface HookRegistrationInfo {
	plugin_id: string;
	hook: HookName;
}

export interface FireOptions {
	/** Deliver to this plugin's callbacks only (it must have one for the hook). */
	only?: string;
	/** Mark every log entry of the dispatch as a test event. */
	test?: boolean;
}

/** One dispatch through `fire`, with the kind's own result and every call it made. */
export interface FireReport {
	hook: HookName;
	kind: HookKind;
	/** Each callback call of this dispatch, as the hook log records it. */
	calls: HookLogEntry[];
	/** Collectors: what each plugin added, and the text the app appends to the message. */
	injected?: InjectedContext[];
	context?: string;
	/** Directives: what the app would do with the tool call. */
	decision?: ToolDecision;
}

interface Dispatch extends FireOptions {
	onCall?: (entry: HookLogEntry) => void;
}

// Accepts a `string`-typed name from untyped plugin code but rejects a mistyped literal.
type WideString<S extends string> = string extends S ? unknown : never;

export class HookBus implements PluginCaller {
	#registrations: Registration[] = [];
	#seq = 0;
	#loadOrder: string[] = [];
	#observerQueue: Promise<void> = Promise.resolve();
	/** Per plugin: settles once it has received every observer event raised so far. */
	#caughtUp = new Map<string, Promise<void>>();
	/** Settles when a registration is removed, so a hung callback stops holding the queue. */
	#removed = new WeakMap<Registration, { promise: Promise<void>; resolve: () => void }>();
	#summaries = new WeakMap<object, string>();
	#details = new WeakMap<object, string>();
	#firstSeen: string[] = [];
	#calls = 0;
	readonly #callPrefix = Math.random().toString(36).slice(2, 8);
	readonly #timeoutSeconds: () => number;
	readonly #record: (entry: HookLogEntry) => void;
	readonly #now: () => number;
	readonly #logger: HookLogger;
	readonly #onTimeout: HookBusOptions['onTimeout'];
	readonly #concurrent: boolean;

	constructor(options: HookBusOptions = {}) {
		this.#timeoutSeconds = options.timeoutSeconds ?? (() => DEFAULT_TIMEOUT_SECONDS);
		this.#record = options.record ?? (() => {});
		this.#now = options.now ?? (() => Date.now());
		this.#logger = options.logger ?? console;
		this.#onTimeout = options.onTimeout;
		this.#concurrent = options.concurrentPlugins ?? false;
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
		// Its queued events will be skipped; a reloaded instance starts with nothing to wait for.
		this.#caughtUp.delete(pluginId);
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
	 * up the conversation) and plugins still see events in the order they happened. An event
	 * goes to the callbacks registered when it was raised. Throws on a name that is no observer.
	 */
	notify<N extends ObserverHookName>(name: N, payload: HookPayload<N>): Promise<void> {
		assertHookKind(name, 'observer');
		const base = this.#snapshot(name, payload);
		if (base === undefined) return this.#observerQueue;
		return this.#notify(name, base, {});
	}

	#notify(name: HookName, base: unknown, options: Dispatch): Promise<void> {
		const regs = this.#ordered(name, options.only);
		if (!regs.length) this.#recordUnheard(name, base, options);
		const delivered = new Map<string, () => void>();
		for (const reg of regs) if (!delivered.has(reg.plugin_id)) delivered.set(reg.plugin_id, this.#expectEvent(reg.plugin_id));
		const dispatch = this.#observerQueue.then(async () => {
			try {
				await eachPluginInTurn(
					regs,
					this.#concurrent,
					async (reg) => {
						if (reg.active) await Promise.race([this.#run(reg, base, options), this.#whenRemoved(reg)]);
						return true;
					},
					(pluginId) => delivered.get(pluginId)?.()
				);
			} finally {
				for (const release of delivered.values()) release();
			}
		});
		this.#observerQueue = dispatch.catch(() => {});
		return dispatch;
	}

	/** Settles when every observer dispatch queued so far has finished. */
	settled(): Promise<void> {
		return this.#observerQueue;
	}

	/** Collectors: the usable text results, in dispatch order, tagged with their plugin. */
	async collect<N extends CollectorHookName>(
		name: N,
		payload: HookPayload<N>,
		signal?: AbortSignal
	): Promise<InjectedContext[]> {
		assertHookKind(name, 'collector');
		const base = this.#snapshot(name, payload);
		if (base === undefined) return [];
		return this.#collect(name, base, {}, signal);
	}

	#collect(name: HookName, base: unknown, options: Dispatch, signal?: AbortSignal): Promise<InjectedContext[]> {
		const regs = this.#ordered(name, options.only);
		if (!regs.length) this.#recordUnheard(name, base, options);
		return collectInjected(regs, base, (reg, current) => this.#runCaughtUp(reg, current, options), signal, this.#concurrent);
	}

	/** Directives: first block wins; `args` rewrites chain; a failing callback blocks (fails closed). */
	async decide(name: DirectiveHookName, payload: HookPayload<DirectiveHookName>): Promise<ToolDecision> {
		assertHookKind(name, 'directive');
		const base = this.#snapshot(name, payload);
		if (base === undefined) return { block: true, reason: `The ${name} payload could not be copied for plugins.` };
		return this.#decide(name, base as HookPayload<DirectiveHookName>, {});
	}

	#decide(name: HookName, base: HookPayload<DirectiveHookName>, options: Dispatch): Promise<ToolDecision> {
		const regs = this.#ordered(name, options.only);
		if (!regs.length) this.#recordUnheard(name, base, options);
		return decideToolCall(regs, base, (reg, current) => this.#runCaughtUp(reg, current, options));
	}

	/**
	 * Dispatches any hook by name with its kind's own rules (the same paths as notify, collect
	 * and decide) and reports every call. For test events and test kits: an unknown name or a
	 * payload that is not plain data throws; `only` limits delivery to one plugin.
	 */
	async fire(name: string, payload: unknown, options: FireOptions = {}): Promise<FireReport> {
		assertHookName(name);
		if (options.only !== undefined && !this.#ordered(name, options.only).length) {
			throw new Error(`Plugin "${options.only}" has no ${name} callback.`);
		}
		let base: unknown;
		try {
			base = freezeClone(payload);
		} catch (error) {
			throw new TypeError(`The ${name} payload is not plain data: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
		}
		const calls: HookLogEntry[] = [];
		const dispatch: Dispatch = { ...options, onCall: (entry) => calls.push(entry) };
		const kind = HOOK_KINDS[name];
		if (kind === 'observer') {
			await this.#notify(name, base, dispatch);
			return { hook: name, kind, calls };
		}
		if (kind === 'collector') {
			const injected = await this.#collect(name, base, dispatch);
			return { hook: name, kind, calls, injected, context: joinInjected(injected) };
		}
		const decision = await this.#decide(name, base as HookPayload<DirectiveHookName>, dispatch);
		return { hook: name, kind, calls, decision };
	}

	// Collectors and directives act on what a plugin learned from earlier events (memory:
	// post_compaction marks a session, the next pre_llm_call re-injects), so each plugin first
	// receives its queued events. A plugin with none queued is called at once.
	async #runCaughtUp(reg: Registration, payload: unknown, options: Dispatch): Promise<HookCallResult | undefined> {
		const pending = this.#caughtUp.get(reg.plugin_id);
		if (pending) {
			// Bounded: another plugin's hung observer ahead in the queue delays this call by at
			// most one timeout period (a fixed cap when the timeout is off), never for good.
			await waitAtMost(pending, catchUpLimitMs(resolveTimeoutMs(this.#timeoutSeconds())));
			if (!reg.active) return undefined;
		}
		return this.#run(reg, payload, options);
	}

	// The returned release is idempotent and always called (in a finally), so a failing or
	// timed-out observer never leaves the plugin's collectors waiting.
	#expectEvent(pluginId: string): () => void {
		let resolve!: () => void;
		const delivered = new Promise<void>((r) => (resolve = r));
		// Events are delivered in order, so waiting for the latest covers all earlier ones.
		this.#caughtUp.set(pluginId, delivered);
		return () => {
			resolve();
			if (this.#caughtUp.get(pluginId) === delivered) this.#caughtUp.delete(pluginId);
		};
	}

	/**
	 * Runs plugin code that is not a hook callback (a slash command, a tool, register(ctx))
	 * under the same rules: the hook timeout, the 60 s skip after a timeout (kept on `target`,
	 * so keep one target per command or tool), failures tagged with plugin and name, and a
	 * line in the hook log.
	 */
	callPlugin(target: PluginCallTarget, call: () => unknown, options: PluginCallOptions = {}): Promise<HookCallResult> {
		const { summary = '', read, describe, payload } = options;
		return runPluginCall(target, call, this.#context(summary, {}), { read, describe, payload });
	}

	#run(reg: Registration, payload: unknown, options: Dispatch): Promise<HookCallResult> {
		return runHook(reg, payload, this.#context(this.#summary(payload), options, payload));
	}

	#context(summary: string, options: Dispatch, payload?: unknown): RunHookContext {
		const { onCall } = options;
		return {
			timeoutMs: resolveTimeoutMs(this.#timeoutSeconds()),
			now: this.#now,
			record: onCall
				? (entry) => {
						onCall(entry);
						this.#record(entry);
					}
				: this.#record,
			logger: this.#logger,
			summary,
			payloadDetail: payload === undefined ? undefined : () => this.#detail(payload),
			test: options.test,
			callId: () => `${this.#callPrefix}-${++this.#calls}`,
			onTimeout: this.#onTimeout
		};
	}

	// So a user can see that a compaction or deletion happened even with no plugin listening.
	#recordUnheard(name: HookName, payload: unknown, options: Dispatch): void {
		try {
			const entry: HookLogEntry = { at: this.#now(), hook: name, plugin_id: '', duration_ms: 0, outcome: 'unheard', summary: this.#summary(payload) };
			if (options.test) entry.test = true;
			options.onCall?.(entry);
			this.#record(entry);
		} catch (error) {
			this.#logger.warn('[hooks] hook log sink failed', error);
		}
	}

	/** One summary per dispatched payload, however many callbacks receive it. */
	#summary(payload: unknown): string {
		if (payload === null || typeof payload !== 'object') return summarizePayload(payload);
		let summary = this.#summaries.get(payload);
		if (summary === undefined) {
			summary = summarizePayload(payload);
			this.#summaries.set(payload, summary);
		}
		return summary;
	}

	/** The payload as an expanded log row shows it, rendered once per dispatch. */
	#detail(payload: unknown): string {
		if (payload === null || typeof payload !== 'object') return previewValue(payload);
		let detail = this.#details.get(payload);
		if (detail === undefined) {
			detail = previewValue(payload);
			this.#details.set(payload, detail);
		}
		return detail;
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

	#ordered(name?: HookName, only?: string): Registration[] {
		const rank = (id: string) => {
			const loaded = this.#loadOrder.indexOf(id);
			return loaded >= 0 ? loaded : this.#loadOrder.length + this.#firstSeen.indexOf(id);
		};
		// A copy: registrations made during a dispatch join the next one, not this one.
		return this.#registrations
			.filter((r) => (name === undefined || r.hook === name) && (only === undefined || r.plugin_id === only))
			.sort((a, b) => rank(a.plugin_id) - rank(b.plugin_id) || a.seq - b.seq);
	}

	#whenRemoved(reg: Registration): Promise<void> {
		let entry = this.#removed.get(reg);
		if (!entry) {
			let resolve!: () => void;
			const promise = new Promise<void>((r) => (resolve = r));
			entry = { promise, resolve };
			this.#removed.set(reg, entry);
		}
		return entry.promise;
	}

	#remove(matches: (reg: Registration) => boolean): void {
		for (const reg of this.#registrations) {
			if (!matches(reg)) continue;
			reg.active = false;
			this.#removed.get(reg)?.resolve();
		}
		this.#registrations = this.#registrations.filter((r) => r.active);
	}
}
