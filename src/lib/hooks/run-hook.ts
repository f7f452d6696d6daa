// The one choke point that calls plugin code: it bounds the call in time, catches, tags
// failures with plugin id and hook name, quarantines timed-out callbacks and logs every call.
import { HOOK_KINDS, type HookName } from './hook-map';

/** `unheard`: the event was dispatched but no plugin listens to it (recorded once, plugin_id ''). */
export type HookOutcome = 'ok' | 'error' | 'timeout' | 'skipped' | 'unheard';

export interface HookLogEntry {
	/** Assigned by the store that keeps the log, if any. */
	id?: number;
	at: number;
	hook: HookName;
	plugin_id: string;
	duration_ms: number;
	outcome: HookOutcome;
	error?: string;
	summary: string;
}

export interface HookLogger {
	warn(message: string, ...details: unknown[]): void;
}

/** One registered callback; also the unit that a timeout quarantines. */
export interface Registration {
	readonly plugin_id: string;
	readonly hook: HookName;
	readonly callback: (payload: unknown) => unknown;
	readonly seq: number;
	active: boolean;
	suppressedUntil: number;
}

export type HookCallResult =
	| { outcome: 'ok'; value: unknown }
	| { outcome: 'error' | 'timeout' | 'skipped'; error: string };

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

export async function runHook(reg: Registration, payload: unknown, ctx: RunHookContext): Promise<HookCallResult> {
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
		// `payload` is the dispatch's deep-frozen snapshot, shared by every callback of it.
		const settled = await callWithTimeout(() => reg.callback(payload), ctx.timeoutMs);
		if (settled.timedOut) {
			reg.suppressedUntil = ctx.now() + SUPPRESS_AFTER_TIMEOUT_MS;
			const error = `timed out after ${ctx.timeoutMs / 1000} s`;
			ctx.logger.warn(`[hooks] plugin "${reg.plugin_id}" ${error} in ${reg.hook}; skipped for 60 s`);
			log('timeout', error);
			return { outcome: 'timeout', error };
		}
		// Inside the try: reading what a plugin returned runs its code too (getters, proxies).
		const value = HOOK_KINDS[reg.hook] === 'observer' ? undefined : copyResult(settled.value);
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
