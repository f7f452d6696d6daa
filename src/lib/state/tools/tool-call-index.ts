// Which tool calls the transcript's rows hold and which of them have a result, so that each call
// shows as one row: under its answer while it runs, in its result's place once it has one. A
// model may give the same call id in every answer: a result answers the call of that id in the
// answer before it.
import type { MessageRow } from '../../db/schema';
import type { ToolCall } from '../../providers/types';

export type { ToolCall };

/** The calls among some rows and their results. */
export interface ToolCallIndex {
	/** For each tool result, by its seq: the call it answers, and that call's key. */
	results: ReadonlyMap<number, { call: ToolCall; key: string }>;
	/** The keys of the calls that have a result. */
	answered: ReadonlySet<string>;
}

/** A call of an answer, named apart from every other call in the profile. */
export function callKey(answer: Pick<MessageRow, 'session_id' | 'seq'>, call: ToolCall): string {
	return `${answer.session_id}/${answer.seq}/${call.id}`;
}

/** Indexes the answers' calls and their results among `rows`, in order (one pass). */
export function indexToolCalls(rows: readonly MessageRow[]): ToolCallIndex {
	const results = new Map<number, { call: ToolCall; key: string }>();
	const answered = new Set<string>();
	let calls = new Map<string, { call: ToolCall; key: string }>();
	for (const row of rows) {
		if (row.role === 'assistant') {
			if (row.tool_calls?.length) calls = new Map(row.tool_calls.map((call) => [call.id, { call, key: callKey(row, call) }]));
		} else if (row.role === 'tool' && row.tool_call_id) {
			const found = calls.get(row.tool_call_id);
			if (!found) continue;
			results.set(row.seq, found);
			answered.add(found.key);
		}
	}
	return { results, answered };
}
