// The shape of a conversation row as compaction planning sees it: plain data, no database.
import type { Role, ToolCall } from '../providers/types';

export interface ContextRow {
	seq: number;
	role: Role;
	/** 'summary' rows hold an earlier compaction's summary and sit before what they replaced. */
	kind: 'message' | 'summary';
	/** A summary the user edited: later compactions keep it word for word, ahead of their own. */
	edited?: boolean;
	content: string;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
	/** Exact token count (filled in by the worker before planning). */
	tokens?: number;
	encoding?: string;
}

export type CountedRow = ContextRow & { tokens: number };

/** The text a row costs in a request: its content plus any tool-call names and arguments. */
export function costText(row: Pick<ContextRow, 'content' | 'tool_calls'>): string {
	if (!row.tool_calls?.length) return row.content;
	return [row.content, ...row.tool_calls.map((call) => `${call.name}(${call.arguments})`)].join('\n');
}

/** Tool results stubbed by pruning start with this, so they are never pruned twice. */
export const PRUNED_STUB_PREFIX = '[Tool output pruned';
