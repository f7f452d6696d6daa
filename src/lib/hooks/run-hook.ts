// The one choke point that calls plugin code (hook callbacks, slash commands, tools and
// register(ctx)): it bounds the call in time, catches, tags failures with plugin id and name,
// quarantines what timed out and logs every call.
import { copyResult } from './copy-result';
import { describeHookResult, describeIgnored, type ResultNote } from './describe-result';
import { HOOK_KINDS, type HookName } from './hook-map';
import { previewValue } from './preview-value';

/**
 * `unheard`: the event was dispatched but no plugin listens to it (recorded once, plugin_id '').
 * `warning`: the call ran, but returned a value the app cannot use (see `warning`).
 */
export type HookOutcome = 'ok' | 'warning' | 'error' | 'timeout' | 'skipped' | 'unheard';

/** What an expanded hook log row shows; kept in memory by the tab that made the call, never stored. */
export interface HookCallDetail {
	/** The payload (or a command's or tool's arguments), rendered with long parts cut. */
	payload?: string;
	/** What the call returned, as the app read it, rendered the same way. */
	value?: string;
	/** For a throw: the error's stack as the browser gave it. */
	stack?: string;
}

export interface HookLogEntry {
	/** Assigned by the store that keeps the log, if any. */
	id?: number;
	at: number;
	/** A hook name, or what else of the plugin ran: `/name` (a command), `tool name`, `register(ctx)`. */
	hook: string;
	plugin_id: string;
	duration_ms: number;
	outcome: HookOutcome;
	error?: string;
	summary: string;
	/** What the call returned, as the app read it: one short line. */
	result?: string;
	/** For outcome `warning`: what was wrong with the returned value, and what was expected. */
	warning?: string;
	/** Sent as a test event (Send test event, or a test kit): no real session took part. */
	test?: boolean;
	/** Unique per call within the bus that made it: the key of its in-memory detail. */
	call_id?: string;
	/** Not stored: the hook log writer keeps it in memory for the current tab. */
	detail?: HookCallDetail;
}

export interface HookLogger {
	warn(message: string, ...details: unknown[]): void;
}

/** Something of a plugin's that the app calls; also the unit that a timeout quarantines. */
export interface PluginCallTarget {
	readonly plugin_id: string;
	/** Its name in the hook log (see HookLogEntry.hook). */
	readonly hook: string;
	suppressedUntil: number;
}

/** One registered hook callback. */
export interface Registration extends PluginCallTarget {
	readonly hook: HookName;
	readonly callback: (payload: unknown) => unknown;
	readonly seq: number;
	active: boolean;
}

export type HookCallResult =
	| { outcome: 'ok'; value: unknown }
	| { outcome: 'timeout'; error: string; timeoutMs: number }
	| { outcome: 'error' | 'skipped'; error: string };

/** How commands, tools and plugin start-up reach the choke point (the hook bus implements it). */
export interface PluginCaller {
	/**
	 * Calls `call` as `target`; `read` turns its result into what the caller keeps, inside the
	 * same guard (reading a plugin's value can run its code). Never throws for the plugin.
	 */
	callPlugin(target: PluginCallTarget, call: () => unknown, options?: PluginCallOptions): Promise<HookCallResult>;
}

export interface PluginCallOptions {
	/** The one-line summary stored with the log row. */
	summary?: string;
	/** Turns the settled value into what the caller keeps, inside the guard. */
	read?: (value: unknown) => unknown;
	/** Says what the kept value means, for the log row. */
	describe?: (kept: unknown, raw: unknown) => ResultNote;
	/** What the call was given, for the row's details. */
	payload?: unknown;
}

export interface RunHookContext {
	/** 0 means no limit. */
	timeoutMs: number;
	now: () => number;
	record: (entry: HookLogEntry) => void;
	logger: HookLogger;
	/** Already computed by the caller: one summary per dispatch, not per callback. */
	summary: string;
	/** The payload as the row's details show it; computed once per dispatch, on demand. */
	payloadDetail?: () => string | undefined;
	/** Marks the call's log entry as a test event. */
	test?: boolean;
	/** A fresh id for each call's log entry. */
	callId?: () => string;
	/** Told of each call that timed out, so the plugin's host can check that its code still runs. */
	onTimeout?: (target: PluginCallTarget) => void;
}

/** How long a callback that timed out is left out before it gets another chance. */
export const SUPPRESS_AFTER_TIMEOUT_MS = 60_000;

export function runHook(reg: Registration, payload: unknown, ctx: RunHookContext): Promise<HookCallResult> {
	// `payload` is the dispatch's deep-frozen snapshot, shared by every callback of it.
	if (HOOK_KINDS[reg.hook] === 'observer') {
		// An observer's return is never read (that could run its code); only its type is noted.
		return runPluginCall(reg, () => reg.callback(payload), ctx, { read: () => undefined, describe: (_kept, raw) => describeIgnored(raw) });
	}
	return runPluginCall(reg, () => reg.callback(payload), ctx, { read: copyResult, describe: (value) => describeHookResult(reg.hook, value) });
}

interface RunOptions {
	read?: (value: unknown) => unknown;
	/** `kept`: what `read` made of the value; `raw`: the value itself, not to be read into. */
	describe?: (kept: unknown, raw: unknown) => ResultNote;
	payload?: unknown;
}

/** Calls plugin code through the choke point; `read` runs on its settled value, inside the guard. */
export async function runPluginCall(reg: PluginCallTarget, call: () => unknown, ctx: RunHookContext, options: RunOptions = {}): Promise<HookCallResult> {
	const read = options.read ?? ((value: unknown) => value);
	const at = ctx.now();
	const callId = ctx.callId?.();
	const log = (outcome: HookOutcome, extra: Partial<HookLogEntry> = {}, detail: HookCallDetail = {}) =>
		safeRecord(ctx, {
			at,
			hook: reg.hook,
			plugin_id: reg.plugin_id,
			duration_ms: Math.max(0, ctx.now() - at),
			outcome,
			summary: ctx.summary,
			...extra,
			...(ctx.test ? { test: true } : {}),
			...(callId === undefined ? {} : { call_id: callId }),
			detail: { ...payloadDetail(ctx, options.payload), ...detail }
		});

	if (at < reg.suppressedUntil) {
		const error = `skipped: timed out less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1000} s ago`;
		log('skipped', { error });
		return { outcome: 'skipped', error };
	}
	try {
		const settled = await callWithTimeout(call, ctx.timeoutMs);
		if (settled.timedOut) {
			reg.suppressedUntil = ctx.now() + SUPPRESS_AFTER_TIMEOUT_MS;
			const error = `timed out after ${ctx.timeoutMs / 1000} s`;
			ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" ${error} in ${reg.hook}; skipped for 60 s`);
			log('timeout', { error });
			try {
				ctx.onTimeout?.(reg);
			} catch (failure) {
				ctx.logger.warn('[hooks] timeout handler failed', failure);
			}
			return { outcome: 'timeout', error, timeoutMs: ctx.timeoutMs };
		}
		// Inside the try: reading what a plugin returned runs its code too (getters, proxies).
		const value = read(settled.value);
		const note = describeSafely(options.describe, value, settled.value);
		log(note.warning ? 'warning' : 'ok', note, value === undefined ? {} : { value: previewSafely(value) });
		return { outcome: 'ok', value };
	} catch (thrown) {
		const error = thrown instanceof Error ? thrown.message : String(thrown);
		ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" failed in ${reg.hook}: ${error}`, thrown);
		log('error', { error }, { stack: stackOf(thrown) });
		return { outcome: 'error', error };
	}
}

function payloadDetail(ctx: RunHookContext, payload: unknown): HookCallDetail {
	const text = payload === undefined ? ctx.payloadDetail?.() : previewSafely(payload);
	return text === undefined ? {} : { payload: text };
}

// Details are for the log: a value that cannot be rendered must not turn the call into a failure.
function previewSafely(value: unknown): string | undefined {
	try {
		return previewValue(value);
	} catch {
		return undefined;
	}
}

// A description is for the log: if it fails, the call still counts as what it was.
function describeSafely(describe: RunOptions['describe'], kept: unknown, raw: unknown): ResultNote {
	try {
		return describe?.(kept, raw) ?? {};
	} catch {
		return {};
	}
}

function stackOf(thrown: unknown): string | undefined {
	try {
		return thrown instanceof Error && typeof thrown.stack === 'string' ? thrown.stack : undefined;
	} catch {
		return undefined;
	}
}

export type Settled = { timedOut: false; value: unknown } | { timedOut: true };

// setTimeout (not AbortSignal.timeout) so Vitest fake timers drive it. A late result or
// rejection of an abandoned call lands on an already-settled promise and is dropped.
export function callWithTimeout(call: () => unknown, timeoutMs: number): Promise<Settled> {
	const running = new Promise<unknown>((resolve) => resolve(call()));
	if (timeoutMs <= 0) return running.then((value) => ({ timedOut: false, value }));
	return new Promise<Settled>((resolve, reject) => {
		const timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
		running.then(
			(value) => {
				clearTimeout(timer);
				resolve({ timedOut: false, value });
			},
			(error: unknown) => {
				clearTimeout(timer);
				reject(error);
			}
		);
	});
}

// A broken log sink must not turn a plugin call into an app failure.
function safeRecord(ctx: RunHookContext, entry: HookLogEntry): void {
	try {
		ctx.record(entry);
	} catch (error) {
		ctx.logger.warn('[hooks] hook log sink failed', error);
	}
}
