// The one choke point that calls plugin code (hook callbacks, slash commands, tools and
// register(ctx)): it bounds the call in time, catches, tags failures with plugin id and name,
// quarantines what timed out and logs every call.
import { HOOK_KINDS, type HookName } from './hook-map';

/** `unheard`: the event was dispatched but no plugin listens to it (recorded once, plugin_id ''). */
export type HookOutcome = 'ok' | 'error' | 'timeout' | 'skipped' | 'unheard';

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
	callPlugin(target: PluginCallTarget, call: () => unknown, options?: { summary?: string; read?: (value: unknown) => unknown }): Promise<HookCallResult>;
}

export interface RunHookContext {
	/** 0 means no limit. */
	timeoutMs: number;
	now: () => number;
	record: (entry: HookLogEntry) => void;
	logger: HookLogger;
	/** Already computed by the caller: one summary per dispatch, not per callback. */
	summary: string;
}

/** How long a callback that timed out is left out before it gets another chance. */
export const SUPPRESS_AFTER_TIMEOUT_MS = 60_000;

export function runHook(reg: Registration, payload: unknown, ctx: RunHookContext): Promise<HookCallResult> {
	// `payload` is the dispatch's deep-frozen snapshot, shared by every callback of it.
	return runPluginCall(reg, () => reg.callback(payload), ctx, HOOK_KINDS[reg.hook] === 'observer' ? () => undefined : copyResult);
}

/** Calls plugin code through the choke point; `read` runs on its settled value, inside the guard. */
export async function runPluginCall(
	reg: PluginCallTarget,
	call: () => unknown,
	ctx: RunHookContext,
	read: (value: unknown) => unknown = (value) => value
): Promise<HookCallResult> {
	const at = ctx.now();
	const log = (outcome: HookOutcome, error?: string) =>
		safeRecord(ctx, {
			at,
			hook: reg.hook,
			plugin_id: reg.plugin_id,
			duration_ms: Math.max(0, ctx.now() - at),
			outcome,
			...(error === undefined ? {} : { error }),
			summary: ctx.summary
		});

	if (at < reg.suppressedUntil) {
		const error = `skipped: timed out less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1000} s ago`;
		log('skipped', error);
		return { outcome: 'skipped', error };
	}
	try {
		const settled = await callWithTimeout(call, ctx.timeoutMs);
		if (settled.timedOut) {
			reg.suppressedUntil = ctx.now() + SUPPRESS_AFTER_TIMEOUT_MS;
			const error = `timed out after ${ctx.timeoutMs / 1000} s`;
			ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" ${error} in ${reg.hook}; skipped for 60 s`);
			log('timeout', error);
			return { outcome: 'timeout', error, timeoutMs: ctx.timeoutMs };
		}
		// Inside the try: reading what a plugin returned runs its code too (getters, proxies).
		const value = read(settled.value);
		log('ok');
		return { outcome: 'ok', value };
	} catch (thrown) {
		const error = thrown instanceof Error ? thrown.message : String(thrown);
		ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" failed in ${reg.hook}: ${error}`, thrown);
		log('error', error);
		return { outcome: 'error', error };
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

// A result crosses back from plugin code as plain data (DESIGN §7): the app then holds a copy
// the plugin can no longer reach, and a value that is not plain data fails like a throw.
function copyResult(value: unknown): unknown {
	try {
		return structuredClone(value);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(`returned a value that is not plain data (${reason})`, { cause: error });
	}
}

// A broken log sink must not turn a plugin call into an app failure.
function safeRecord(ctx: RunHookContext, entry: HookLogEntry): void {
	try {
		ctx.record(entry);
	} catch (error) {
		ctx.logger.warn('[hooks] hook log sink failed', error);
	}
}
