// When the provider refuses a request as too long, its numbers win: the window it states, and
// the ratio of its count to this app's, are learned (kept for the model, and for the session),
// and the conversation is compacted until the request fits that window, the kept tail
// shrinking step by step down to the last user message (and the messages the user keeps in
// context, which no compaction folds). Only then does it give up, saying why.
import { updateSession } from '../db/session-verbs';
import { listActiveMessages } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import { findKeptRows } from '../context/pinned-rows';
import { TOKEN_RATIO_LIMITS } from '../db/schema';
import { reservedOutputFor } from '../context/context-window';
import { estimateSession } from '../context/estimate-session';
import type { ContextLimit } from '../providers/types';
import { compactSession } from './compact-session';
import type { CompactionDeps, CompactionOutcome, CompactionRequest } from './compaction-types';

/** What a provider's overflow error taught about a model. */
export interface LearnedLimit {
	window: number | null;
	/** The provider's count of a request over this app's count of it. */
	ratio: number | null;
}

const clampRatio = (ratio: number) => Math.round(Math.min(TOKEN_RATIO_LIMITS[1], Math.max(TOKEN_RATIO_LIMITS[0], ratio)) * 1000) / 1000;

/**
 * Learns from the error's numbers: deps for the window it states (the summarizer's too, when it
 * is the same model), and the session's ratio. Returns the deps to compact with.
 */
export async function learnLimit(deps: CompactionDeps, sessionId: string, limit: ContextLimit | null, injected: readonly string[]): Promise<CompactionDeps> {
	if (!limit) return deps;
	let ratio: number | null = null;
	if (limit.requested !== null) {
		const estimate = await estimateSession(deps.db, deps.counter, sessionId, deps.model, { ...deps.request, injected });
		if (estimate && estimate.counted > 0) {
			ratio = clampRatio(limit.requested / estimate.counted);
			await updateSession(deps.db, sessionId, { token_ratio: ratio });
		}
	}
	deps.onLimitLearned?.(deps.model, { window: limit.window, ratio });
	const window = limit.window;
	if (window === null || window >= deps.windowTokens) return deps;
	const summarizer = deps.summarizer && deps.summarizer.model === deps.model ? { ...deps.summarizer, windowTokens: window } : deps.summarizer;
	return { ...deps, windowTokens: window, summarizer, request: { ...deps.request, reservedOutput: reservedOutputFor(window) } };
}

/**
 * The steps of an overflow compaction: older images no longer sent, then summaries with the
 * usual tail (at most a quarter of the window), the last exchange, the last user message.
 */
function steps(deps: CompactionDeps): Array<Pick<CompactionRequest, 'tailTokens' | 'minimalTail' | 'kind' | 'images'>> {
	return [{ kind: 'prune_tool_results', images: 'only' }, { tailTokens: Math.min(deps.settings.tailTokens, Math.floor(deps.windowTokens / 4)) }, { tailTokens: 0 }, { tailTokens: 0, minimalTail: true }];
}

/**
 * Compacts (reason `overflow`) until the next request fits the window, each compaction announced
 * as usual. The provider said the request is too long, so at least one compaction must happen
 * even where this app's count says it fits (an error that states no numbers): a step that
 * finds nothing to compact hands on to the next, smaller tail.
 */
export async function compactToFit(
	deps: CompactionDeps,
	sessionId: string,
	injected: readonly string[],
	signal?: AbortSignal,
	compact: (request: CompactionRequest) => Promise<CompactionOutcome> = (request) => compactSession(deps, request)
): Promise<CompactionOutcome> {
	let id = sessionId;
	let rotated = false;
	let done: CompactionOutcome | null = null;
	let total = Infinity;
	// Where this app's count finds the request within the window, the count cannot tell whether
	// dropping images is enough: the summaries' steps go first then.
	const counted = (await estimateSession(deps.db, deps.counter, sessionId, deps.model, { ...deps.request, injected }))?.total ?? Infinity;
	for (const step of steps(deps)) {
		if (signal?.aborted) break;
		if (step.images && counted <= deps.windowTokens) continue;
		const outcome = await compact({ sessionId: id, reason: 'overflow', signal, ...step });
		if (outcome.status === 'compacted') {
			rotated ||= outcome.rotated;
			id = outcome.sessionId;
			done = { ...outcome, rotated };
		} else if (outcome.why === 'turn_limit') {
			return stillTooLong(deps, outcome.message, total);
		} else if (outcome.why !== 'nothing' && outcome.why !== 'not_shorter') return done ?? outcome;
		if (!done) continue;
		total = (await estimateSession(deps.db, deps.counter, id, deps.model, { ...deps.request, injected }))?.total ?? Infinity;
		if (total <= deps.windowTokens) return done;
	}
	if (signal?.aborted) return done ?? { status: 'noop', why: 'cancelled', message: 'Compaction was cancelled; nothing changed.' };
	// Compaction leaves the messages the user keeps in context: letting some go may be what makes it fit.
	const kept = findKeptRows(contextRows(await listActiveMessages(deps.db, id))).filter((row) => row.role !== 'tool').length;
	const yours = kept ? ` and the ${kept === 1 ? 'message' : `${kept} messages`} you keep in context` : '';
	const advice = `Shorten your message,${kept ? ' stop keeping some messages in context,' : ''} or choose a model with a larger context window.`;
	if (!done) return { status: 'noop', why: 'nothing', message: `the conversation is already down to your last message${yours}, and ${deps.model} still finds it too long. ${advice}` };
	const needs = Number.isFinite(total) ? `about ${total.toLocaleString('en')} tokens` : 'more tokens';
	return {
		status: 'noop',
		why: 'nothing',
		message: `even with only your last message${yours} kept, the request needs ${needs}, more than the ${deps.windowTokens.toLocaleString('en')}-token window of ${deps.model}. ${advice}`
	};
}

/** The turn may summarise no more: what the request still needs, where it is known. */
function stillTooLong(deps: CompactionDeps, refused: string, total: number): CompactionOutcome {
	const needs = Number.isFinite(total) ? `; the request still needs about ${total.toLocaleString('en')} tokens, more than the ${deps.windowTokens.toLocaleString('en')}-token window of ${deps.model}` : `, and ${deps.model} still finds the request too long`;
	return { status: 'noop', why: 'turn_limit', message: `${refused}${needs}. Shorten your message, or choose a model with a larger context window.` };
}
