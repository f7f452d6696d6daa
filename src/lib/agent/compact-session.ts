// One compaction of one session, for any kind and reason: measure, plan (in the worker),
// write the summary (a model, or the extractive summarizer for the offline model), check it
// is really shorter, commit in one transaction (in place, or rotating into a child session),
// and only then announce it with `post_compaction`. Every no-op changes nothing and fires
// nothing. The caller holds the session's work lock.
import { commitCompaction, commitRotation, CompactionRaceError, listActiveMessages, setCompactionState } from '../db/compaction-verbs';
import { contextRows } from '../db/context-rows';
import type { NewMessage } from '../db/message-verbs';
import type { CompactionMarker, CompactionState, MessageRow, SessionRow } from '../db/schema';
import { getSession } from '../db/session-verbs';
import { anchoredTotal, estimateMessages } from '../context/estimate-session';
import { freesEnough, MIN_FREED_RATIO, summaryBudget } from '../context/summary-budget';
import { SUMMARY_PREAMBLE } from '../context/summary-template';
import type { CompactionKind, PostCompactionPayload } from '../hooks/hook-payloads';
import { isAbortError } from '../providers/abort';
import { buildSessionRow } from '../sessions/build-session-row';
import { noticeRow, nativeChange, pruneChange, summaryChange, toContextRow, type CompactionChange } from './compaction-changes';
import { USER_REASONS, type CompactionProgress, type CompactionDeps, type CompactionOutcome, type CompactionRequest, type NoopReason } from './compaction-types';
import { writeSummary } from './write-summary';

const COOLDOWN_BASE_MS = 60_000;
const COOLDOWN_MAX_MS = 30 * 60_000;

const noop = (why: NoopReason, message: string): CompactionOutcome => ({ status: 'noop', why, message });

/** Which kind a reason uses when the caller does not say. */
export function kindFor(deps: Pick<CompactionDeps, 'provider' | 'settings'>, request: Pick<CompactionRequest, 'reason' | 'kind'>): CompactionKind {
	if (request.kind) return request.kind;
	if (request.reason === 'proactive_prune') return 'prune_tool_results';
	if (request.reason === 'provider') return 'provider_native';
	return deps.settings.native && deps.provider.compact ? 'provider_native' : 'summarize';
}

/** The request estimate of a set of rows, as the meter and the thresholds measure it. */
export async function measureRows(deps: CompactionDeps, rows: ReadonlyArray<Pick<MessageRow, 'content' | 'tool_calls' | 'tokens' | 'encoding'>>, ratio?: number): Promise<number> {
	const estimate = await deps.counter.estimate({ messages: estimateMessages(rows as MessageRow[], deps.model), ...deps.request }, deps.model);
	return anchoredTotal(estimate, ratio);
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
	if (!USER_REASONS.has(request.reason) && now() < session.compaction.cooldown_until) {
		return noop('cooldown', 'Compaction is paused for a while after a failed attempt.');
	}
	const kind = kindFor(deps, request);
	deps.onProgress?.({ phase: 'planning' });
	const context = contextRows(await listActiveMessages(deps.db, session.id));
	const before = await measureRows(deps, context, session.token_ratio);

	let change: CompactionChange | null;
	let markerRow: NewMessage;
	let replacedTokens: number | undefined;
	try {
		const built = await buildChange(deps, request, kind, context, now());
		if (!built) return noop('nothing', 'Nothing to compact: the conversation already fits in the part that is always kept.');
		({ change, markerRow, replacedTokens } = built);
	} catch (error) {
		await recordFailure(deps, session);
		const failure = describeFailure(error, request.signal);
		return noop(failure.why, failure.message);
	}
	if (request.signal?.aborted) {
		await recordFailure(deps, session);
		return noop('cancelled', 'Compaction was cancelled; nothing changed.');
	}

	const after = await measureRows(deps, change.next, session.token_ratio);
	if (after >= before) {
		await recordFailure(deps, session);
		return noop('not_shorter', 'Compaction would not make the conversation shorter, so nothing changed.');
	}
	// A summary nearly as long as what it replaced frees nothing worth the detail it costs.
	if (replacedTokens !== undefined && !freesEnough(replacedTokens, before - after)) {
		await recordFailure(deps, session);
		return noop('not_shorter', `The summary would free only ${(before - after).toLocaleString('en')} of the ${replacedTokens.toLocaleString('en')} tokens it replaces (under ${MIN_FREED_RATIO * 100}%), so nothing changed.`);
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
		at: now(),
		...(rotate ? { old_session_id: session.id } : {})
	};
	markerRow.compaction = marker;
	const state: CompactionState = {
		failures: 0,
		cooldown_until: 0,
		turns_since_micro: kind === 'micro_summarize' ? 0 : session.compaction.turns_since_micro
	};
	let resultId = session.id;
	try {
		if (rotate) resultId = (await rotateInto(deps, session, change, state, after)).id;
		else await commitCompaction(deps.db, { sessionId: session.id, compactionId: marker.id, removed: change.removed, inserted: change.inserted, compaction: state, tokenEstimate: after, now: now() });
	} catch (error) {
		if (error instanceof CompactionRaceError) return noop('race', error.message);
		throw error;
	}
	const payload: PostCompactionPayload = {
		session_id: resultId,
		old_session_id: rotate ? session.id : '',
		kind,
		reason: request.reason,
		before_tokens: before,
		after_tokens: after,
		messages_removed: change.removed.length,
		profile: deps.sessions.profile,
		platform: deps.sessions.platform
	};
	if (rotate) announceRotation(deps, session, resultId);
	void deps.hooks?.notify('post_compaction', payload);
	return { status: 'compacted', sessionId: resultId, rotated: rotate, payload };
}

async function buildChange(
	deps: CompactionDeps,
	request: CompactionRequest,
	kind: CompactionKind,
	context: MessageRow[],
	at: number
): Promise<{ change: CompactionChange; markerRow: NewMessage; replacedTokens?: number } | null> {
	if (kind === 'provider_native' && request.reason !== 'provider') return nativeCompaction(deps, request, context, at);
	const pruning = kind === 'prune_tool_results' || kind === 'provider_native';
	const writer = deps.summarizer ?? { provider: deps.provider, model: deps.model, windowTokens: deps.windowTokens };
	const prepared = await deps.counter.prepareCompaction({
		mode: kind === 'provider_native' ? 'provider_prune' : kind,
		rows: context.map(toContextRow),
		model: deps.model,
		// Asked for by the user: everything but the last exchange goes into the summary.
		tailTokens: USER_REASONS.has(request.reason) ? 0 : deps.settings.tailTokens,
		extractive: writer.provider.offline,
		focus: request.focus,
		cleared: request.cleared
	});
	const plan = prepared.plan;
	if (!plan) return null;
	if (pruning) {
		if (plan.kind !== 'prune_tool_results') return null;
		const stubTokens = plan.stubs.reduce((sum, stub) => sum + (stub.tokens ?? 0), 0);
		if (request.reason === 'proactive_prune' && plan.removedTokens - stubTokens < deps.settings.pruneMinReclaim) return null;
		const notice = noticeRow(`${plan.stubs.length} old tool output${plan.stubs.length === 1 ? '' : 's'} pruned.`, at);
		return { change: pruneChange(context, plan, notice, prepared.encoding, at), markerRow: notice };
	}
	if (plan.kind === 'prune_tool_results') return null;
	let text = prepared.summary?.content;
	if (!text) {
		const counted = new Map(prepared.counts);
		const wanted = new Set(plan.summarized);
		const rows = context.filter((row) => wanted.has(row.seq)).map((row) => ({ ...toContextRow(row), tokens: row.tokens ?? counted.get(row.seq) }));
		deps.onProgress?.({ phase: 'summarizing', chars: 0 });
		const budget = summaryBudget(plan.removedTokens);
		const cut = (written: string) => deps.counter.cutSummary(written, budget, deps.model);
		text = await writeSummary(writer, rows, plan.previousSummary, { focus: request.focus, signal: request.signal, onProgress: deps.onProgress, budget, cut });
	}
	const content = `${SUMMARY_PREAMBLE}\n\n${text}`;
	const { counts, encoding } = await deps.counter.countTexts([content], deps.model);
	const summary: NewMessage = { id: crypto.randomUUID(), role: 'user', kind: 'summary', content, status: 'complete', created_at: at, tokens: counts[0], encoding };
	return { change: summaryChange(context, plan, summary), markerRow: summary, replacedTokens: plan.removedTokens };
}

async function nativeCompaction(deps: CompactionDeps, request: CompactionRequest, context: MessageRow[], at: number) {
	if (!deps.provider.compact) throw new Error(`${deps.provider.label} has no compaction of its own.`);
	const history = context.map((row) => ({ role: row.role, content: row.content, tool_calls: row.tool_calls, tool_call_id: row.tool_call_id, summary: row.kind === 'summary' }));
	const change = nativeChange(context, await deps.provider.compact(history, request.signal), at);
	if (!change) return null;
	const texts = change.inserted.map((place) => place.row.content);
	const { counts, encoding } = await deps.counter.countTexts(texts, deps.model);
	change.inserted.forEach((place, i) => Object.assign(place.row, { tokens: counts[i], encoding }));
	const summary = change.inserted.find((place) => place.row.kind === 'summary')?.row;
	if (summary) return { change, markerRow: summary };
	const notice = noticeRow('The provider compacted the conversation.', at);
	change.inserted.unshift({ before: change.inserted[0]?.before ?? null, row: notice });
	return { change, markerRow: notice };
}

async function rotateInto(deps: CompactionDeps, parent: SessionRow, change: CompactionChange, state: CompactionState, after: number): Promise<SessionRow> {
	const built = buildSessionRow(deps.sessions, {
		provider: parent.provider,
		model: parent.model,
		title: parent.title,
		session_key: parent.session_key,
		parent_session_id: parent.id,
		parent_kind: 'compression',
		// The same conversation, so the same origin: deleting either link takes the whole lineage.
		import_id: parent.import_id
	});
	const child: SessionRow = { ...built, title_source: parent.title_source, pinned: parent.pinned, token_estimate: after, token_ratio: parent.token_ratio, compaction: state };
	// The marker (a notice, where pruning made one) leads the child's transcript.
	const marker = change.inserted.find((place) => place.row.compaction)?.row;
	const rows = marker && marker.kind === 'notice' ? [marker, ...change.next] : change.next;
	return commitRotation(deps.db, { parentId: parent.id, endedAt: (deps.now ?? Date.now)(), child, rows, parentCompaction: state });
}

/** The thread moved to a child session: the parent ended, the child started and took over. */
function announceRotation(deps: CompactionDeps, parent: SessionRow, childId: string): void {
	const { platform, profile } = deps.sessions;
	void deps.hooks?.notify('on_session_end', { session_id: parent.id, session_key: parent.session_key, end_reason: 'compression', platform });
	void deps.hooks?.notify('on_session_start', { session_id: childId, session_key: parent.session_key, platform, profile, model: parent.model });
	void deps.hooks?.notify('on_session_reset', { session_id: childId, old_session_id: parent.id, session_key: parent.session_key });
}
