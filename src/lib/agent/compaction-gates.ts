// When compaction runs on its own: the thresholds of the turn loop (pre_api, gateway_hygiene,
// post_tool), the overflow retry, the provider's own compaction, the idle pass after a turn
// (proactive_prune, micro_summarize, between_turns), and the provider-usage anchor.
import { getSession, updateSession } from '../db/session-verbs';
import { setCompactionState } from '../db/compaction-verbs';
import { TOKEN_RATIO_LIMITS } from '../db/schema';
import { boundSession, estimateSession } from '../context/estimate-session';
import { isAbortError } from '../providers/abort';
import { compactSession } from './compact-session';
import { compactToFit, learnLimit } from './fit-overflow';
import { oversizedTools } from './oversized-tools';
import type { CompactionDeps, CompactionOutcome, CompactionRequest, TurnCompaction } from './compaction-types';
import { TurnBudget } from './turn-budget';

/**
 * A broken worker or a failed estimate must not stop the conversation: the request goes out
 * uncompacted (the provider's overflow answer is still handled). Stop still stops.
 */
async function orNull<T>(work: () => Promise<T>): Promise<T | null> {
	try {
		return await work();
	} catch (error) {
		if (isAbortError(error)) throw error;
		console.warn('[compaction] skipped:', error);
		return null;
	}
}

export function createTurnCompaction(deps: CompactionDeps, options: { resumed: boolean }): TurnCompaction {
	let resumed = options.resumed;
	let lastCounted: number | null = null;
	// Every compaction this turn makes on its own goes through the turn's budget of summaries.
	const budget = new TurnBudget();
	const compact = async (request: CompactionRequest): Promise<CompactionOutcome> => (budget.allows(request) ? budget.note(await compactSession(deps, request)) : budget.refusal());
	const limit = (fraction: number) => fraction * deps.windowTokens;
	const measure = async (sessionId: string, injected: readonly string[] = [], below = Infinity) => {
		// The exact count waits for the worker (its tokenizer loads on first use): skip it when even
		// a generous bound on what is new (one token per character) stays below every threshold.
		if ((await boundSession(deps.db, sessionId, deps.model, { ...deps.request, injected })) <= below) return 0;
		const estimate = await estimateSession(deps.db, deps.counter, sessionId, deps.model, { ...deps.request, injected });
		lastCounted = estimate?.counted ?? null;
		return estimate?.total ?? 0;
	};
	// Compaction off for this chat: the turn never compacts it (the provider's own compaction neither).
	const off = !deps.settings.automatic;
	return {
		automatic: !off,
		beforeTurn: (sessionId, signal) =>
			orNull(async () => {
				if (off) return null;
				const lowest = Math.min(limit(deps.settings.threshold), resumed ? limit(deps.settings.hygieneThreshold) : Infinity);
				const total = await measure(sessionId, [], lowest);
				const hygiene = resumed && total > limit(deps.settings.hygieneThreshold);
				resumed = false;
				if (!hygiene && total <= limit(deps.settings.threshold)) return null;
				const reason = hygiene ? 'gateway_hygiene' : 'pre_api';
				// Cheap first: no longer sending older images may be enough; summarise only if it is not.
				const shed = await compact({ sessionId, reason, kind: 'prune_tool_results', images: 'only', signal });
				const now = shed.status === 'compacted' ? shed.sessionId : sessionId;
				if (shed.status === 'compacted' && (shed.payload.after_tokens ?? Infinity) <= limit(hygiene ? deps.settings.hygieneThreshold : deps.settings.threshold)) return shed;
				const summarized = await compact({ sessionId: now, reason, signal });
				return summarized.status === 'compacted' || shed.status !== 'compacted' ? summarized : shed;
			}),
		beforeRequest: (sessionId, injected, afterTools, signal) => orNull(async () => (off ? null : postTool(sessionId, injected, afterTools, signal))),
		async onOverflow(sessionId, signal, { limit: stated, injected }) {
			const outcome = await orNull(async () => {
				// The provider's window holds from now on, for every later check of this turn.
				deps = await learnLimit(deps, sessionId, stated, injected);
				return compactToFit(deps, sessionId, injected, signal, compact);
			});
			return outcome ?? { status: 'noop', why: 'failed', message: 'the token counter is unavailable.' };
		},
		async onProviderCompacted(sessionId, { cleared, native }) {
			const request = native ? { native } : { cleared };
			const outcome = await orNull(() => compactSession(deps, { sessionId, reason: 'provider', ...request }));
			return outcome ?? { status: 'noop', why: 'failed', message: 'the token counter is unavailable.' };
		},
		// The provider compacts at the app's own threshold, by its own count of the request.
		contextManagement: () => (deps.settings.native && !off ? { compactAt: Math.floor(limit(deps.settings.threshold)) } : undefined),
		oversizedTools: (sessionId, injected, conversation) => orNull(() => oversizedTools(deps, sessionId, injected, conversation)),
		async afterAnswer(sessionId, usage) {
			if (!usage?.input_tokens || !lastCounted) return;
			const ratio = usage.input_tokens / lastCounted;
			if (ratio < TOKEN_RATIO_LIMITS[0] || ratio > TOKEN_RATIO_LIMITS[1]) return;
			await updateSession(deps.db, sessionId, { token_ratio: Math.round(ratio * 1000) / 1000 });
		}
	};

	async function postTool(sessionId: string, injected: readonly string[], afterTools: boolean, signal?: AbortSignal): Promise<CompactionOutcome | null> {
		const total = await measure(sessionId, injected, limit(deps.settings.threshold));
		if (!afterTools || total <= limit(deps.settings.threshold)) return null;
		// Cheap first: stubbing old tool outputs (and no longer sending older images) may be enough; summarise only if it is not.
		const pruned = await compact({ sessionId, reason: 'post_tool', kind: 'prune_tool_results', images: 'with', signal });
		const now = pruned.status === 'compacted' ? pruned.sessionId : sessionId;
		if (pruned.status === 'compacted' && (pruned.payload.after_tokens ?? Infinity) <= limit(deps.settings.threshold)) return pruned;
		const summarized = await compact({ sessionId: now, reason: 'post_tool', signal });
		return summarized.status === 'compacted' ? summarized : pruned.status === 'compacted' ? pruned : summarized;
	}
}

/**
 * The idle pass after a completed turn: prune old tool outputs when that reclaims enough,
 * fold an old exchange on the micro cadence, and summarise when still over the idle threshold.
 * Returns every compaction that happened (each already announced).
 */
export async function runIdlePass(deps: CompactionDeps, sessionId: string, signal?: AbortSignal): Promise<CompactionOutcome[]> {
	const done: CompactionOutcome[] = [];
	if (!deps.settings.automatic) return done;
	let id = sessionId;
	const step = async (run: () => Promise<CompactionOutcome>) => {
		if (signal?.aborted) return;
		const outcome = await run();
		if (outcome.status === 'compacted') {
			done.push(outcome);
			id = outcome.sessionId;
		}
	};
	await step(() => compactSession(deps, { sessionId: id, reason: 'proactive_prune', signal }));
	const session = await getSession(deps.db, id);
	if (!session) return done;
	const turns = session.compaction.turns_since_micro + 1;
	if (deps.settings.micro && turns >= deps.settings.microEvery) {
		await step(() => compactSession(deps, { sessionId: id, reason: 'between_turns', kind: 'micro_summarize', signal }));
	}
	if (!done.some((o) => o.status === 'compacted' && o.payload.kind === 'micro_summarize')) {
		await setCompactionState(deps.db, id, { ...session.compaction, turns_since_micro: turns });
	}
	const estimate = await estimateSession(deps.db, deps.counter, id, deps.model, deps.request);
	if (estimate && estimate.total > deps.settings.idleThreshold * deps.windowTokens) {
		await step(() => compactSession(deps, { sessionId: id, reason: 'between_turns', signal }));
	}
	return done;
}
