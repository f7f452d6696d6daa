// Compaction time of one stored session: compactSession as "Compact now" runs it with the
// offline model (the extractive summary is written in the worker), each of its steps timed
// through a counter that records its calls, and the pure planning and summary steps timed on
// their own over the same rows.
import { DEFAULT_SYSTEM_PROMPT } from '../../src/lib/agent/build-request';
import { compactSession } from '../../src/lib/agent/compact-session';
import { toContextRow } from '../../src/lib/agent/compaction-changes';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionDeps, type CompactionPhase, type ContextCounter } from '../../src/lib/agent/compaction-types';
import type { CountedRow } from '../../src/lib/context/context-rows';
import { contextWindowFor, reservedOutputFor } from '../../src/lib/context/context-window';
import { extractiveSummary } from '../../src/lib/context/extractive-summary';
import { planSummarize } from '../../src/lib/context/plan-compaction';
import { listActiveMessages } from '../../src/lib/db/compaction-verbs';
import { contextRows } from '../../src/lib/db/context-rows';
import type { PalimpsestDb } from '../../src/lib/db/database';
import { appendMessages, type NewMessage } from '../../src/lib/db/message-verbs';
import { HookBus } from '../../src/lib/hooks/hook-bus';
import { createOfflineProvider } from '../../src/lib/providers/offline';
import { createSession } from '../../src/lib/sessions/session-lifecycle';
import { timed } from './timing';

export interface CompactionTimes {
	rows: number;
	tokens: number;
	/** Reading the live rows (what compactSession does first). */
	readMs: number;
	/** planSummarize over the counted rows, in this thread. */
	planMs: number;
	/** extractiveSummary of what the plan summarises, in this thread. */
	summaryMs: number;
	/** compactSession's steps: the worker calls it made, in order, and the commit. */
	steps: Array<{ step: string; ms: number }>;
	commitMs: number;
	totalMs: number;
	outcome: string;
}

type Call = { step: string; ms: number };

/** The app's worker, with every call it answers timed. */
function recording(counter: ContextCounter, calls: Call[]): ContextCounter {
	const time = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
		const { ms, value } = await timed(work);
		calls.push({ step, ms });
		return value;
	};
	return {
		estimate: (input, model) => time('estimate', () => counter.estimate(input, model)),
		countTexts: (texts, model) => time('countTexts', () => counter.countTexts(texts, model)),
		prepareCompaction: (input) => time('prepareCompaction', () => counter.prepareCompaction(input)),
		cutSummary: (text, budget, model) => time('cutSummary', () => counter.cutSummary(text, budget, model)),
		checkSummary: (input) => time('checkSummary', () => counter.checkSummary(input))
	};
}

/** What compactSession needs to compact with the offline model and its extractive summary. */
function offlineDeps(db: PalimpsestDb, counter: ContextCounter, model: string, onProgress?: CompactionDeps['onProgress']): CompactionDeps {
	const windowTokens = contextWindowFor(model);
	return {
		db,
		counter,
		provider: createOfflineProvider({ delayMs: 0 }),
		model,
		hooks: new HookBus(),
		sessions: { db, profile: 'default', platform: 'web' },
		settings: { ...DEFAULT_COMPACTION_SETTINGS },
		windowTokens,
		request: { systemPrompt: DEFAULT_SYSTEM_PROMPT, reservedOutput: reservedOutputFor(windowTokens) },
		onProgress
	};
}

export interface FreedTokens {
	before: number;
	after: number;
	/** The tokens of what the summary replaced (earlier summaries included). */
	replaced: number;
	summary: number;
	messages: number;
	outcome: string;
}

/** One compaction of a stored session for `reason`, and the tokens it freed. */
export async function measureFreed(db: PalimpsestDb, counter: ContextCounter, sessionId: string, reason: 'manual' | 'pre_api', model = 'offline-mini'): Promise<FreedTokens> {
	const outcome = await compactSession(offlineDeps(db, counter, model), { sessionId, reason });
	if (outcome.status !== 'compacted') return { before: 0, after: 0, replaced: 0, summary: 0, messages: 0, outcome: outcome.message };
	const before = outcome.payload.before_tokens;
	const messages = outcome.payload.messages_removed ?? 0;
	const after = outcome.payload.after_tokens ?? before;
	const live = await listActiveMessages(db, outcome.sessionId);
	const summary = live.find((row) => row.kind === 'summary')?.tokens ?? 0;
	return { before, after, replaced: before - after + summary, summary, messages, outcome: 'compacted' };
}

/** Stores `rows` (with their counts) in a new offline session of `db`; returns its id. */
export async function storeSession(db: PalimpsestDb, rows: readonly NewMessage[], model = 'offline-mini'): Promise<string> {
	const session = await createSession({ db, profile: 'default', platform: 'web' }, { provider: 'offline', model });
	for (let start = 0; start < rows.length; start += 500) await appendMessages(db, session.id, rows.slice(start, start + 500));
	return session.id;
}

export async function measureCompaction(db: PalimpsestDb, counter: ContextCounter, sessionId: string, model = 'offline-mini'): Promise<CompactionTimes> {
	const read = await timed(() => listActiveMessages(db, sessionId));
	const rows = contextRows(read.value).map(toContextRow) as CountedRow[];
	const plan = await timed(() => planSummarize(rows, { tailTokens: 0 }));
	if (!plan.value) throw new Error('Nothing to compact in the seeded session.');
	const wanted = new Set(plan.value.summarized);
	const summary = await timed(() => extractiveSummary(rows.filter((row) => wanted.has(row.seq)), plan.value?.previousSummary ?? null));

	const calls: Call[] = [];
	const phases = new Map<CompactionPhase, number>();
	const deps = offlineDeps(db, recording(counter, calls), model, ({ phase }) => void phases.set(phase, performance.now()));
	const run = await timed(() => compactSession(deps, { sessionId, reason: 'manual' }));
	const outcome = run.value;
	const saving = phases.get('saving');
	const done = phases.get('done');
	return {
		rows: rows.length,
		tokens: rows.reduce((sum, row) => sum + row.tokens, 0),
		readMs: read.ms,
		planMs: plan.ms,
		summaryMs: summary.ms,
		steps: calls,
		commitMs: saving !== undefined && done !== undefined ? done - saving : NaN,
		totalMs: run.ms,
		outcome:
			outcome.status === 'compacted'
				? `compacted ${outcome.payload.messages_removed} messages, ${outcome.payload.before_tokens.toLocaleString('en')} → ${outcome.payload.after_tokens?.toLocaleString('en')} tokens`
				: `no compaction: ${outcome.message}`
	};
}
