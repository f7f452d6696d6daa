// One compaction of one session, for any kind and reason: measure, plan (in the worker),
// write the summary (a model, or the extractive summarizer for the offline model), check it
// is really shorter, commit in one transaction (in place, or rotating into a child session),
// and only then announce it with `post_compaction`. Every no-op changes nothing and fires
// nothing. The caller holds the session's work lock.
import { commitCompaction, commitRotation, CompactionRaceError, listActiveMessages, setCompactionState } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import type { CompactionMarker, CompactionState, MessageRow, SessionRow, UnfiredHook } from '../db/schema';
import { markFired } from '../db/unfired-hook-verbs';
import { nextMarkerTime } from '../db/live-markers';
import { getSession } from '../db/session-verbs';
import { anchoredTotal } from '../context/anchor-estimate';
import { estimateMessages, imageTokensOf } from '../context/estimate-session';
import { freesEnough, MIN_FREED_RATIO } from '../context/summary-budget';
import type { CompactionKind, PostCompactionPayload } from '../hooks/hook-payloads';
import { isAbortError } from '../providers/abort';
import { buildSessionRow } from '../sessions/build-session-row';
import { thisTab } from '../sessions/tab-presence';
import { buildChange, type BuiltChange } from './build-change';
import { factFigures } from './summary-facts';
import { userMessagesIn } from './build-request';
import type { CompactionChange } from './compaction-changes';
import { USER_REASONS, type CompactionProgress, type CompactionDeps, type CompactionOutcome, type CompactionRequest, type NoopReason } from './compaction-types';

const COOLDOWN_BASE_MS = 60_000;
const COOLDOWN_MAX_MS = 30 * 60_000;

const noop = (why: NoopReason, message: string): CompactionOutcome => ({ status: 'noop', why, message });

/** Which kind a reason uses when the caller does not say. */
export function kindFor(deps: Pick<CompactionDeps, 'provider' | 'settings'>, request: Pick<CompactionRequest, 'reason' | 'kind' | 'native'>): CompactionKind {
	if (request.kind) return request.kind;
	if (request.reason === 'proactive_prune') return 'prune_tool_results';
	// The provider's own: a compaction item it made, or tool uses it cleared (context editing).
	if (request.reason === 'provider') return request.native ? 'provider_native' : 'prune_tool_results';
	return deps.settings.native && deps.provider.compact ? 'provider_native' : 'summarize';
}

type MeasuredRow = Pick<MessageRow, 'content' | 'tool_calls' | 'tokens' | 'encoding' | 'attachments' | 'tool_result' | 'images_pruned'>;

/** The request estimate of a set of rows, as the meter and the thresholds measure it: their images included, by the wire format's rule. */
export async function measureRows(deps: CompactionDeps, rows: readonly MeasuredRow[], ratio?: number): Promise<number> {
	const estimate = await deps.counter.estimate({ messages: estimateMessages(rows as MessageRow[], deps.model), ...deps.request }, deps.model);
	const images = await imageTokensOf(rows, deps.request.imageApi);
	return anchoredTotal({ total: estimate.total + images, reservedOutput: estimate.reservedOutput }, ratio);
}

async function recordFailure(deps: CompactionDeps, session: SessionRow): Promise<void> {
	const failures = session.compaction.failures + 1;
	const wait = Math.min(COOLDOWN_MAX_MS, COOLDOWN_BASE_MS * 2 ** (failures - 1));
	await setCompactionState(deps.db, session.id, { ...session.compaction, failures, cooldown_until: (deps.now ?? Date.now)() + wait }).catch(() => {});
}

function describeFailure(error: unknown, signal?: AbortSignal): { why: NoopReason; message: string } {
	if (isAbortError(error) || signal?.aborted) return { why: 'cancelled', message: 'Compaction was cancelled; nothing changed.' };
	return { why: 'failed', message: `Compaction failed, nothing changed: ${error instanceof Error ? error.message : String(error)}` };
}

/**
 * Compacts with its own abort signal, so Cancel stops only the compaction (a turn it runs in
 * goes on uncompacted), while stopping the turn stops the compaction too.
 */
export async function compactSession(deps: CompactionDeps, request: CompactionRequest): Promise<CompactionOutcome> {
	const inner = new AbortController();
	const stop = () => inner.abort(request.signal?.reason);
	if (request.signal?.aborted) stop();
	request.signal?.addEventListener('abort', stop, { once: true });
	const report = (progress: CompactionProgress) => deps.onProgress?.({ ...progress, reason: request.reason, cancel: () => inner.abort() });
	try {
		return await compactOnce({ ...deps, onProgress: report }, { ...request, signal: inner.signal });
	} finally {
		request.signal?.removeEventListener('abort', stop);
		report({ phase: 'done' });
	}
}

async function compactOnce(deps: CompactionDeps, request: CompactionRequest): Promise<CompactionOutcome> {
	const now = deps.now ?? Date.now;
	const session = await getSession(deps.db, request.sessionId);
	if (!session) return noop('race', 'The session no longer exists.');
	// What the provider compacted on its own is recorded whatever the cooldown: it is done already.
	// An overflow is not paused either: the provider refused the message, and only compacting
	// (step by step, see fit-overflow) lets it through.
	if (!USER_REASONS.has(request.reason) && request.reason !== 'provider' && request.reason !== 'overflow' && now() < session.compaction.cooldown_until) {
		return noop('cooldown', 'Compaction is paused for a while after a failed attempt.');
	}
	deps.onProgress?.({ phase: 'planning' });
	const active = await listActiveMessages(deps.db, session.id);
	const context = contextRows(active);
	const before = await measureRows(deps, context, session.token_ratio);

	let built: BuiltChange | null;
	try {
		built = await buildChange(deps, request, kindFor(deps, request), context, now());
		if (!built) return noop('nothing', 'Nothing to compact: the conversation already fits in the part that is always kept.');
	} catch (error) {
		await recordFailure(deps, session);
		const failure = describeFailure(error, request.signal);
		return noop(failure.why, failure.message);
	}
	if (request.signal?.aborted) {
		await recordFailure(deps, session);
		return noop('cancelled', 'Compaction was cancelled; nothing changed.');
	}

	const { change, markerRow, kind } = built;
	const after = await measureRows(deps, change.next, session.token_ratio);
	if (after >= before && !request.native && !(request.replaceNative && dropsNative(context, change))) {
		await recordFailure(deps, session);
		return noop('not_shorter', 'Compaction would not make the conversation shorter, so nothing changed.');
	}
	// A summary nearly as long as what it replaced frees nothing worth the detail it costs.
	if (built.replacedTokens !== undefined && !request.replaceNative && !freesEnough(built.replacedTokens, before - after)) {
		await recordFailure(deps, session);
		return noop('not_shorter', `The summary would free only ${(before - after).toLocaleString('en')} of the ${built.replacedTokens.toLocaleString('en')} tokens it replaces (under ${MIN_FREED_RATIO * 100}%), so nothing changed.`);
	}
	deps.onProgress?.({ phase: 'saving' });
	const rotate = !deps.settings.inPlace && request.reason !== 'provider';
	const marker: CompactionMarker = {
		id: crypto.randomUUID(),
		kind,
		reason: request.reason,
		before_tokens: before,
		after_tokens: after,
		messages_removed: change.removed.length,
		user_messages_folded: foldedUserMessages(context, change),
		// A compaction that continues in a new session is the first there; in place, it follows the others.
		at: rotate ? now() : nextMarkerTime(active, now()),
		...(rotate ? { old_session_id: session.id } : {}),
		...(built.facts ? { facts: built.facts } : {})
	};
	markerRow.compaction = marker;
	const state: CompactionState = {
		failures: 0,
		cooldown_until: 0,
		turns_since_micro: kind === 'micro_summarize' ? 0 : session.compaction.turns_since_micro
	};
	// The hook is written with the commit and cleared once dispatched (see replay-unfired-hooks.ts).
	const payloadFor = (resultId: string): PostCompactionPayload => ({
		session_id: resultId,
		old_session_id: rotate ? session.id : '',
		kind,
		reason: request.reason,
		before_tokens: before,
		after_tokens: after,
		messages_removed: change.removed.length,
		profile: deps.sessions.profile,
		platform: deps.sessions.platform,
		...factFigures(built.facts)
	});
	const owes = (resultId: string): UnfiredHook => ({ tab: thisTab(), hook: 'post_compaction', payload: payloadFor(resultId) });
	let resultId = session.id;
	try {
		if (rotate) resultId = (await rotateInto(deps, session, change, state, after, { compactionId: marker.id, owes })).id;
		else await commitCompaction(deps.db, { sessionId: session.id, compactionId: marker.id, removed: change.removed, inserted: change.inserted, compaction: state, tokenEstimate: after, now: now(), owes: owes(session.id) });
	} catch (error) {
		if (error instanceof CompactionRaceError) return noop('race', error.message);
		throw error;
	}
	const payload = payloadFor(resultId);
	if (rotate) announceRotation(deps, session, resultId);
	const dispatched = deps.hooks?.notify('post_compaction', payload) ?? Promise.resolve();
	void dispatched.finally(() => markFired(deps.db, marker.id)).catch(() => {});
	return { status: 'compacted', sessionId: resultId, rotated: rotate, payload };
}

/** The user's messages the change takes out of the context, with those earlier summaries it replaces stood for. */
function foldedUserMessages(context: readonly MessageRow[], change: CompactionChange): number {
	const copied = new Set(change.copied);
	const removed = new Set(change.removed.filter((seq) => !copied.has(seq)));
	return context.reduce((sum, row) => sum + (removed.has(row.seq) ? userMessagesIn(row) : 0), 0);
}

/** True when the change takes a provider's compaction item out of the context. */
function dropsNative(context: readonly MessageRow[], change: CompactionChange): boolean {
	const removed = new Set(change.removed);
	return context.some((row) => row.native && removed.has(row.seq));
}

async function rotateInto(
	deps: CompactionDeps,
	parent: SessionRow,
	change: CompactionChange,
	state: CompactionState,
	after: number,
	owed: { compactionId: string; owes: (childId: string) => UnfiredHook }
): Promise<SessionRow> {
	const built = buildSessionRow(deps.sessions, {
		provider: parent.provider,
		model: parent.model,
		named_provider: parent.named_provider,
		title: parent.title,
		session_key: parent.session_key,
		parent_session_id: parent.id,
		parent_kind: 'compression',
		// The same conversation, so the same origin: deleting either link takes the whole lineage.
		import_id: parent.import_id,
		// ...and the same chat: its settings go on with it.
		chat_settings: parent.chat_settings
	});
	const child: SessionRow = { ...built, title_source: parent.title_source, pinned: parent.pinned, token_estimate: after, token_ratio: parent.token_ratio, compaction: state };
	// The marker (a notice, where pruning made one) leads the child's transcript.
	const marker = change.inserted.find((place) => place.row.compaction)?.row;
	const rows = marker && marker.kind === 'notice' ? [marker, ...change.next] : change.next;
	return commitRotation(deps.db, { parentId: parent.id, endedAt: (deps.now ?? Date.now)(), child, rows, parentCompaction: state, owes: { compactionId: owed.compactionId, hook: owed.owes(child.id) } });
}

/** The thread moved to a child session: the parent ended, the child started and took over. */
function announceRotation(deps: CompactionDeps, parent: SessionRow, childId: string): void {
	const { platform, profile } = deps.sessions;
	void deps.hooks?.notify('on_session_end', { session_id: parent.id, session_key: parent.session_key, end_reason: 'compression', platform });
	void deps.hooks?.notify('on_session_start', { session_id: childId, session_key: parent.session_key, platform, profile, model: parent.model });
	void deps.hooks?.notify('on_session_reset', { session_id: childId, old_session_id: parent.id, session_key: parent.session_key });
}
