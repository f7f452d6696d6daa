// The short status a tool-call row shows, read from the stored result alone, and the call's
// arguments as the row shows them.
import { DENIED } from '../../tool-servers/server-tools';
import type { MessageRow } from '../../db/schema';

export type ToolCallStatus = 'running' | 'done' | 'failed' | 'denied' | 'blocked' | 'stopped' | 'not run';

/**
 * A call's status: from its result when it has one (stopped, denied by you, blocked by a plugin,
 * failed, done); without one, running while a turn runs, else it never ran.
 */
export function toolCallStatus(result: MessageRow | undefined, turnRunning: boolean): ToolCallStatus {
	if (!result) return turnRunning ? 'running' : 'not run';
	if (result.status === 'aborted') return 'stopped';
	const text = result.content;
	if (text === DENIED) return 'denied';
	if (text.startsWith('Tool call blocked:')) return 'blocked';
	// A result whose arguments plugins changed opens with a note saying so.
	if (result.status === 'error' || result.tool_result?.is_error || /^(\[[^\n]*\]\n\n)?Tool error:/.test(text)) return 'failed';
	return 'done';
}

/** A call's arguments as the row shows them: indented JSON, or the text as the model sent it. */
export function showArguments(text: string): string {
	try {
		return JSON.stringify(JSON.parse(text), null, 2) ?? text;
	} catch {
		return text;
	}
}
