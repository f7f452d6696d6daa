// What a compaction needs and what it reports: narrow interfaces, so compactSession is
// testable in Node with a real database, the real worker API and fake providers.
import type { PalimpsestDb } from '../db/database';
import type { ContextWorker } from '../context/context-client';
import type { RequestExtras } from '../context/estimate-session';
import type { CompactionKind, CompactionReason, PostCompactionPayload } from '../hooks/hook-payloads';
import type { HookPayload, ObserverHookName } from '../hooks/hook-map';
import type { ContextLimit, ContextManagement, NativeCompaction, Provider, Usage } from '../providers/types';
import type { SessionContext } from '../sessions/session-context';

export interface CompactionSettings {
	/**
	 * False when the chat's compaction is off (Chat settings): nothing compacts it on its own, not
	 * before a request, after tools, between turns, on an overflow or at the provider; the user still can.
	 */
	automatic: boolean;
	/** Fraction of the context window above which a request is compacted first (pre_api, post_tool). */
	threshold: number;
	/** Fraction above which a resumed session is compacted before its first new turn. */
	hygieneThreshold: number;
	/** Fraction above which the idle pass after a turn compacts (between_turns). */
	idleThreshold: number;
	/** Tokens the kept tail may use. */
	tailTokens: number;
	/** In place (the session keeps its id) or rotating into a child session. */
	inPlace: boolean;
	/** Fold one old exchange into the rolling summary every `microEvery` turns. */
	micro: boolean;
	microEvery: number;
	/** Tool-output pruning runs on its own once it would reclaim at least this many tokens. */
	pruneMinReclaim: number;
	/** Use the provider's own compaction when it has one. */
	native: boolean;
	/** Append the facts a summary lost to it, within a tenth of its budget, when compacting on its own. */
	addLostFacts: boolean;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
	automatic: true,
	threshold: 0.8,
	hygieneThreshold: 0.6,
	idleThreshold: 0.7,
	tailTokens: 6000,
	inPlace: true,
	micro: false,
	microEvery: 4,
	pruneMinReclaim: 4000,
	native: false,
	addLostFacts: true
};

export type ContextCounter = Pick<ContextWorker, 'estimate' | 'countTexts' | 'prepareCompaction' | 'cutSummary' | 'checkSummary'>;

export type CompactionPhase = 'planning' | 'summarizing' | 'saving' | 'done';

export interface CompactionProgress {
	phase: CompactionPhase;
	/** Filled in by compactSession: why it runs, and how to cancel just this compaction. */
	reason?: CompactionReason;
	cancel?: () => void;
	/** While a model writes the summary: characters so far, and which part of how many. */
	chars?: number;
	part?: number;
	parts?: number;
}

export interface CompactionDeps {
	db: PalimpsestDb;
	counter: ContextCounter;
	/** The session's provider and model: what the request estimate and native compaction use. */
	provider: Provider;
	model: string;
	/** Who writes summaries: the compaction model chosen in Settings, else the session's own. */
	summarizer?: { provider: Provider; model: string; windowTokens: number };
	hooks?: NotifyHooks;
	sessions: SessionContext;
	settings: CompactionSettings;
	/** The session model's context window (tokens). */
	windowTokens: number;
	request: RequestExtras;
	now?: () => number;
	onProgress?: (progress: CompactionProgress) => void;
	/** A provider's overflow error stated the model's window or its count: keep it for the model. */
	onLimitLearned?: (model: string, learned: { window: number | null; ratio: number | null }) => void;
	/** The plugin that offers a tool of `request.toolSchemas` (its id and name), if a plugin does. */
	toolOwner?: (toolName: string) => { id: string; name: string } | undefined;
}

export interface CompactionRequest {
	sessionId: string;
	reason: CompactionReason;
	/** Chosen by the reason and Settings when absent. */
	kind?: CompactionKind;
	/** `/compress <focus>`: what the summary must keep above all. */
	focus?: string;
	signal?: AbortSignal;
	/** reason 'provider': how many of its oldest tool results the provider dropped. */
	cleared?: number;
	/** reason 'provider': the compaction the provider made on its own while answering. */
	native?: ProviderCompaction;
	/** Tokens the kept tail may use, instead of what the reason and Settings say. */
	tailTokens?: number;
	/** Keep only the last user message and what follows it after the summary (an overflow that must fit). */
	minimalTail?: boolean;
	/** The model changed: every provider compaction item leaves the context, even when the result is no shorter. */
	replaceNative?: boolean;
	/** kind 'prune_tool_results': also stop sending the images of older turns ('with'), or only that ('only'). */
	images?: 'with' | 'only';
}

/** A compaction the provider made on its own: its items, and its summary when a person can read it. */
export interface ProviderCompaction {
	native: NativeCompaction;
	summary: string | null;
}

/** `turn_limit`: the turn wrote its automatic summaries already (see turn-budget). */
export type NoopReason = 'nothing' | 'cooldown' | 'not_shorter' | 'cancelled' | 'failed' | 'race' | 'turn_limit';

export type CompactionOutcome =
	| { status: 'compacted'; sessionId: string; rotated: boolean; payload: PostCompactionPayload }
	| { status: 'noop'; why: NoopReason; message: string };

/** Reasons a user asked for: no cooldown applies to them. */
export const USER_REASONS: ReadonlySet<CompactionReason> = new Set(['manual']);

/** What a compaction tells plugins through: observer hooks only (post_compaction). */
export interface NotifyHooks {
	notify<N extends ObserverHookName>(name: N, payload: HookPayload<N>): Promise<void>;
}

/** The turn loop's view of compaction: the gates it passes through (see compaction-gates). */
export interface TurnCompaction {
	/** Before the turn's first request and its pre_llm_call: gateway_hygiene or pre_api. */
	beforeTurn(sessionId: string, signal?: AbortSignal): Promise<CompactionOutcome | null>;
	/** Before each request: measures it; after a tool round, compacts when over (post_tool). */
	beforeRequest(sessionId: string, injected: readonly string[], afterTools: boolean, signal?: AbortSignal): Promise<CompactionOutcome | null>;
	/**
	 * The provider refused the request as too long: learn the numbers its error states, then
	 * compact until the request fits (see fit-overflow).
	 */
	onOverflow(sessionId: string, signal: AbortSignal | undefined, refused: { limit: ContextLimit | null; injected: readonly string[] }): Promise<CompactionOutcome>;
	/**
	 * The provider compacted on its own while answering: made a compaction item (`native`), or
	 * cleared its `cleared` oldest tool results (context editing). An item supersedes a clearing.
	 */
	onProviderCompacted(sessionId: string, done: { cleared: number; native: ProviderCompaction | null }): Promise<CompactionOutcome>;
	/** What each request asks of the provider's own context management (native compaction on). */
	contextManagement(): ContextManagement | undefined;
	/** False when the chat compacts only when the user asks (its compaction is off). */
	readonly automatic?: boolean;
	/** The provider reported what the last request cost: later estimates follow its count. */
	afterAnswer(sessionId: string, usage: Usage | null): Promise<void>;
	/**
	 * Why the request must not be sent, when plugins' tools make it larger than the window (see
	 * oversized-tools.ts): `least` before the turn, `whole` before each request. Null: send it.
	 */
	oversizedTools?(sessionId: string, injected: readonly string[], conversation: 'least' | 'whole'): Promise<string | null>;
}
