// The hook contract: one map from hook name to its kind, payload and result. Every other
// hook type, and the runtime table that refuses unknown names, is derived from it. Its types
// (not the runtime code) are published to plugin authors in static/plugin-api.d.ts, doc
// comments included, by `npm run build:api`.
import { closestName } from './closest-name';
import type {
	InjectedContextResult,
	PostCompactionPayload,
	PostLlmCallPayload,
	PostToolCallPayload,
	PreLlmCallPayload,
	PreToolCallPayload,
	SessionDeletePayload,
	SessionEndPayload,
	SessionFinalizePayload,
	SessionResetPayload,
	SessionStartPayload,
	ToolCallDirective
} from './hook-payloads';

/** observer: return ignored; collector: returns are gathered; directive: returns steer the app. */
export type HookKind = 'observer' | 'collector' | 'directive';

export interface HookSpec<K extends HookKind, P, R> {
	kind: K;
	payload: P;
	result: R;
}

/** Every hook, its kind, its payload and what a callback may return. */
export interface HookMap {
	/** A session was created. */
	on_session_start: HookSpec<'observer', SessionStartPayload, unknown>;
	/** A session ended (`/exit`, `/new`, rotation). */
	on_session_end: HookSpec<'observer', SessionEndPayload, unknown>;
	/** Last chance to flush: the session was left for good, or the tab was hidden/closed. */
	on_session_finalize: HookSpec<'observer', SessionFinalizePayload, unknown>;
	/** `/new` or `/reset` replaced the session inside the same thread (same session_key). */
	on_session_reset: HookSpec<'observer', SessionResetPayload, unknown>;
	/**
	 * Once per user turn, before the first model request. Returned strings (or `{ context }`)
	 * are joined with blank lines and appended to the outgoing copy of the user message.
	 * @example ctx.register_hook('pre_llm_call', ({ is_first_turn }) => is_first_turn ? 'Use tabs.' : null)
	 */
	pre_llm_call: HookSpec<'collector', PreLlmCallPayload, InjectedContextResult>;
	/** After the turn's final answer. */
	post_llm_call: HookSpec<'observer', PostLlmCallPayload, unknown>;
	/**
	 * Before a tool runs. Return `{ block: true, reason }` to refuse it or `{ args }` to
	 * replace its arguments. Fails closed: a throw or timeout blocks the call.
	 * @example ctx.register_hook('pre_tool_call', ({ tool_name }) => tool_name === 'rm' ? { block: true, reason: 'no' } : null)
	 */
	pre_tool_call: HookSpec<'directive', PreToolCallPayload, ToolCallDirective>;
	/** After a tool ran. */
	post_tool_call: HookSpec<'observer', PostToolCallPayload, unknown>;
	/** Once per effective compaction, after it was saved. */
	post_compaction: HookSpec<'observer', PostCompactionPayload, unknown>;
	/** Once per committed deletion or archive, after it was saved. */
	on_session_delete: HookSpec<'observer', SessionDeletePayload, unknown>;
}

export type HookName = keyof HookMap;
export type HookPayload<N extends HookName> = HookMap[N]['payload'];
export type HookResult<N extends HookName> = HookMap[N]['result'];

/** Payloads are deep-frozen copies: a plugin cannot change app state through them. */
export type DeepReadonly<T> = T extends (infer U)[]
	? readonly DeepReadonly<U>[]
	: T extends object
		? { readonly [K in keyof T]: DeepReadonly<T[K]> }
		: T;

export type HookHandler<N extends HookName> = (
	payload: DeepReadonly<HookPayload<N>>
) => HookResult<N> | Promise<HookResult<N>>;

type HookNamesOfKind<K extends HookKind> = {
	[N in HookName]: HookMap[N]['kind'] extends K ? N : never;
}[HookName];

export type ObserverHookName = HookNamesOfKind<'observer'>;
export type CollectorHookName = HookNamesOfKind<'collector'>;
export type DirectiveHookName = HookNamesOfKind<'directive'>;

// `satisfies` makes the compiler reject a missing, extra or mis-kinded hook here.
export const HOOK_KINDS = {
	on_session_start: 'observer',
	on_session_end: 'observer',
	on_session_finalize: 'observer',
	on_session_reset: 'observer',
	pre_llm_call: 'collector',
	post_llm_call: 'observer',
	pre_tool_call: 'directive',
	post_tool_call: 'observer',
	post_compaction: 'observer',
	on_session_delete: 'observer'
} as const satisfies { [N in HookName]: HookMap[N]['kind'] };

export const HOOK_NAMES = Object.freeze(Object.keys(HOOK_KINDS) as HookName[]);

export function isHookName(name: unknown): name is HookName {
	return typeof name === 'string' && Object.hasOwn(HOOK_KINDS, name);
}

/** Refuses names from untyped plugins with an error that lists what would have worked. */
export function assertHookName(name: unknown): asserts name is HookName {
	if (isHookName(name)) return;
	const shown = typeof name === 'string' ? JSON.stringify(name) : String(name);
	let message = `Unknown hook ${shown}. Valid hooks: ${HOOK_NAMES.join(', ')}.`;
	const suggestion = typeof name === 'string' ? closestName(name, HOOK_NAMES) : undefined;
	if (suggestion) message += ` Did you mean "${suggestion}"?`;
	throw new Error(message);
}

/** Refuses a name that is no hook of this kind: dispatching it would call no callback, or the wrong ones. */
export function assertHookKind(name: unknown, kind: HookKind): asserts name is HookName {
	assertHookName(name);
	const actual = HOOK_KINDS[name];
	const article = (k: HookKind) => (k === 'observer' ? 'an' : 'a');
	if (actual !== kind) throw new Error(`Hook "${name}" is ${article(actual)} ${actual} hook, not ${article(kind)} ${kind} hook.`);
}
