// What a compaction changes, as plain data: the rows that leave the context, the rows that
// take their place, and the new context in order (for the after-estimate and for rotation).
import type { PlacedRow } from '../db/compaction-verbs';
import type { NewMessage } from '../db/message-verbs';
import type { CompactionMarker, MessageRow } from '../db/schema';
import { attachedItems, type ContextRow } from '../context/context-rows';
import { keptSeqs } from '../context/pinned-rows';
import type { PrunePlan, SummaryPlan } from '../context/plan-compaction';
import type { ChatMessage } from '../providers/types';

export interface CompactionChange {
	removed: number[];
	/** Of `removed`, the rows a changed copy of which stays in the context (their images no longer sent). */
	copied?: number[];
	inserted: PlacedRow[];
	/** The context after the change, oldest first. */
	next: NewMessage[];
}

/** The marker is filled in once the after-estimate is known. */
export type MarkerSlot = { marker: CompactionMarker | null };

export function toContextRow(row: MessageRow): ContextRow {
	const attached = attachedItems(row);
	return {
		seq: row.seq,
		role: row.role,
		kind: row.kind === 'summary' ? 'summary' : 'message',
		...(row.kind === 'summary' && row.compaction?.edited_at !== undefined ? { edited: true } : {}),
		...(row.pinned ? { pinned: true } : {}),
		content: row.content,
		tool_calls: row.tool_calls,
		tool_call_id: row.tool_call_id,
		tokens: row.tokens,
		encoding: row.encoding,
		...(attached.length ? { attached } : {}),
		...(row.images_pruned ? { images_pruned: true as const } : {})
	};
}

function newRow(fields: Partial<NewMessage> & Pick<NewMessage, 'role' | 'content' | 'kind'>, now: number): NewMessage {
	return { id: crypto.randomUUID(), status: 'complete', created_at: now, ...fields };
}

function keepFields(row: MessageRow): NewMessage {
	const { session_id: _s, seq: _q, active: _a, compacted_by: _c, ...rest } = row;
	return { ...rest, id: crypto.randomUUID() };
}

/** Rows in seq order, with each new row placed at `position` (a seq between neighbours, or a kept row's seq: right before it). */
function ordered(context: readonly MessageRow[], removed: ReadonlySet<number>, added: Array<{ position: number; row: NewMessage }>): NewMessage[] {
	const all = [
		...added,
		...context.filter((row) => !removed.has(row.seq)).map((row) => ({ position: row.seq, row: keepFields(row) }))
	];
	return all.sort((a, b) => a.position - b.position).map((entry) => entry.row);
}

/** The summary goes where the plan says: before the first message kept in context that it would have covered, else before the tail. */
export function summaryChange(context: readonly MessageRow[], plan: SummaryPlan, summary: NewMessage): CompactionChange {
	const removed = new Set(plan.removed);
	return {
		removed: plan.removed,
		inserted: [{ before: plan.firstKeptSeq, row: summary }],
		next: ordered(context, removed, [{ position: plan.firstKeptSeq ?? Infinity, row: summary }])
	};
}

export function pruneChange(context: readonly MessageRow[], plan: PrunePlan, notice: NewMessage, encoding: string, now: number): CompactionChange {
	const bySeq = new Map(context.map((row) => [row.seq, row]));
	const copies = plan.images.map((image) => ({
		seq: image.seq,
		// The same message, its images no longer sent; its time is the compaction's, which is how undo finds what it added.
		row: { ...keepFields(bySeq.get(image.seq)!), images_pruned: true as const, tokens: image.tokens, encoding, created_at: now }
	}));
	const stubs = [
		...plan.stubs.map((stub) => ({
			seq: stub.seq,
			row: newRow({ role: 'tool', kind: 'message', content: stub.content, tool_call_id: stub.tool_call_id, tokens: stub.tokens, encoding }, now)
		})),
		...copies
	].sort((a, b) => a.seq - b.seq);
	const first = Math.min(...stubs.map((stub) => stub.seq));
	return {
		removed: stubs.map((stub) => stub.seq),
		...(copies.length ? { copied: copies.map((copy) => copy.seq) } : {}),
		inserted: [{ before: first, row: notice }, ...stubs.map((stub) => ({ after: stub.seq, row: stub.row }))],
		next: ordered(
			context,
			new Set(stubs.map((stub) => stub.seq)),
			stubs.map((stub) => ({ position: stub.seq, row: stub.row }))
		)
	};
}

const sameMessage = (a: ChatMessage, b: MessageRow) =>
	a.role === b.role &&
	a.content === b.content &&
	(a.tool_call_id ?? '') === (b.tool_call_id ?? '') &&
	JSON.stringify(a.tool_calls ?? []) === JSON.stringify(b.tool_calls ?? []);

/** A stored row for a message the provider returned, its own items (if any) kept with it. */
function returnedRow(message: ChatMessage, now: number): NewMessage {
	const { role, content, tool_calls, tool_call_id, native } = message;
	return newRow({ role, content, kind: message.summary ? 'summary' : 'message', tool_calls, tool_call_id, ...(native ? { native } : {}) }, now);
}

/**
 * Native compaction returns the history that replaces `compacted` (the oldest rows of
 * `context`, less any the user keeps in context): what it shares with the end of `compacted` is
 * kept as it is; the rest replaces everything before it, placed before `keptFrom` (the first
 * message kept in context among them) where that comes first, and the rows after stay as they are.
 */
export function nativeChange(context: readonly MessageRow[], compacted: readonly MessageRow[], returned: readonly ChatMessage[], now: number, keptFrom: number | null = null): CompactionChange | null {
	let shared = 0;
	while (shared < returned.length && shared < compacted.length && sameMessage(returned[returned.length - 1 - shared], compacted[compacted.length - 1 - shared])) shared += 1;
	const removedRows = compacted.slice(0, compacted.length - shared);
	if (!removedRows.length) return null;
	const lastRemoved = removedRows.at(-1)!.seq;
	const after = context.find((row) => row.seq > lastRemoved)?.seq ?? null;
	const firstKept = keptFrom !== null && (after === null || keptFrom < after) ? keptFrom : after;
	const rows = returned.slice(0, returned.length - shared).map((message) => returnedRow(message, now));
	return {
		removed: removedRows.map((row) => row.seq),
		inserted: rows.map((row) => ({ before: firstKept, row })),
		next: ordered(context, new Set(removedRows.map((row) => row.seq)), rows.map((row) => ({ position: firstKept ?? Infinity, row })))
	};
}

/**
 * The provider compacted on its own while answering: `summary` replaces every row before
 * `keptSeq` (the question it answered, which stays readable after it), or all rows if null;
 * the messages the user keeps in context stay, after the summary.
 */
export function foldChange(context: readonly MessageRow[], summary: NewMessage, keptSeq: number | null): CompactionChange {
	const kept = keptSeqs(context);
	const before = context.filter((row) => keptSeq === null || row.seq < keptSeq);
	const removed = before.filter((row) => !kept.has(row.seq)).map((row) => row.seq);
	const first = before.find((row) => kept.has(row.seq))?.seq ?? keptSeq;
	return { removed, inserted: [{ before: first, row: summary }], next: ordered(context, new Set(removed), [{ position: first ?? Infinity, row: summary }]) };
}

/** A transcript row that marks a compaction where no summary row does (pruning, some native results). */
export function noticeRow(text: string, now: number): NewMessage {
	return newRow({ role: 'system', kind: 'notice', content: text }, now);
}
