// Runs the tool calls of one model response: `pre_tool_call` may block or rewrite arguments
// (failing closed), each result is stored as a tool message, `post_tool_call` observes it.
import { appendMessages } from '../db/message-verbs';
import type { ToolCall } from '../providers/types';
import type { TurnDeps } from './turn-deps';

function parseArgs(text: string): Record<string, unknown> {
	try {
		const value = JSON.parse(text || '{}');
		return value && typeof value === 'object' && !Array.isArray(value) ? value : { value };
	} catch {
		throw new Error(`The model sent arguments that are not valid JSON: ${text.slice(0, 200)}`);
	}
}

export async function runToolCalls(
	deps: TurnDeps,
	sessionId: string,
	calls: ToolCall[],
	signal?: AbortSignal
): Promise<void> {
	const now = deps.now ?? Date.now;
	for (const call of calls) {
		if (signal?.aborted) return;
		let result: string;
		let args: Record<string, unknown> = {};
		const started = now();
		try {
			args = parseArgs(call.arguments);
			const decision = (await deps.hooks?.decide('pre_tool_call', {
				session_id: sessionId,
				tool_name: call.name,
				args
			})) ?? { block: false };
			if (decision.block) {
				result = `Tool call blocked: ${decision.reason ?? 'a plugin refused it.'}`;
			} else {
				args = decision.args ?? args;
				result = await deps.tools!.run(call.name, args, { session_id: sessionId });
			}
		} catch (error) {
			result = `Tool error: ${error instanceof Error ? error.message : String(error)}`;
		}
		await appendMessages(deps.db, sessionId, [
			{ id: crypto.randomUUID(), role: 'tool', content: result, tool_call_id: call.id, status: 'complete', kind: 'message', created_at: now() }
		], now());
		void deps.hooks?.notify('post_tool_call', {
			session_id: sessionId,
			tool_name: call.name,
			args,
			result,
			duration_ms: now() - started
		});
	}
}
