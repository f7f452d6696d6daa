// Runs the tool calls of one model response: `pre_tool_call` may block or rewrite arguments
// (failing closed; a tool server's tool then asks again), each result is stored as a tool
// message (saying what it ran with when plugins changed the arguments), `post_tool_call`
// observes it.
import { appendMessages } from '../db/message-verbs';
import { raceAbort } from './race-abort';
import { findRewrite, ranWithOf, rewriteNote } from './rewritten-args';
import { isAbortError } from '../providers/abort';
import type { RanWith, StoredToolResult } from '../db/schema';
import type { ArgsRewrite } from '../tool-servers/approval-choices';
import type { ToolCall } from '../providers/types';
import type { ImageBytes } from '../tool-servers/types';
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
	for (const [index, call] of calls.entries()) {
		if (signal?.aborted) return recordStopped(deps, sessionId, calls.slice(index));
		let result: string;
		let stored: StoredToolResult | undefined;
		let images: ImageBytes[] = [];
		let args: Record<string, unknown> = {};
		let rewrite: ArgsRewrite | undefined;
		let denied = false;
		const started = now();
		// Plugins learn which tool server a tool comes from (its name only), never more of it.
		const server = deps.tools?.serverOf?.(call.name);
		const where = server === undefined ? {} : { server };
		let running = false;
		try {
			args = parseArgs(call.arguments);
			// Stop ends the wait for a plugin's verdict or a tool at once.
			const decision = (await raceAbort(
				deps.hooks?.decide('pre_tool_call', { session_id: sessionId, tool_name: call.name, args, ...where }) ??
					Promise.resolve(undefined),
				signal
			)) ?? { block: false };
			if (decision.block) {
				result = `Tool call blocked: ${decision.reason ?? 'a plugin refused it.'}`;
			} else {
				rewrite = findRewrite(args, decision, deps.pluginName ?? ((id) => id));
				args = decision.args ?? args;
				running = true;
				const ran = await raceAbort(deps.tools!.run(call.name, args, { session_id: sessionId, call_id: call.id, signal, ...(rewrite ? { rewrite } : {}) }), signal);
				result = typeof ran === 'string' ? ran : ran.text;
				stored = typeof ran === 'string' ? undefined : ran.stored;
				images = typeof ran === 'string' ? [] : (ran.images ?? []);
				denied = typeof ran !== 'string' && ran.denied === true;
			}
		} catch (error) {
			if (isAbortError(error)) return recordStopped(deps, sessionId, calls.slice(index), running);
			result = `Tool error: ${error instanceof Error ? error.message : String(error)}`;
		}
		// The tool ran (or was called and failed) with arguments plugins changed: the model, the
		// transcript and "What the model received" are told which, and by whom.
		const ranWith: RanWith | undefined = rewrite && running && !denied ? ranWithOf(args, rewrite) : undefined;
		const content = ranWith ? `${rewriteNote(ranWith)}\n\n${result}` : result;
		await appendMessages(deps.db, sessionId, [
			{
				id: crypto.randomUUID(),
				role: 'tool',
				content,
				tool_call_id: call.id,
				status: 'complete',
				kind: 'message',
				created_at: now(),
				...(stored ? { tool_result: stored } : {}),
				...(ranWith ? { ran_with: ranWith } : {})
			}
		], now(), {}, images);
		void deps.hooks?.notify('post_tool_call', {
			session_id: sessionId,
			tool_name: call.name,
			args,
			result,
			duration_ms: now() - started,
			...where
		});
	}
}

/**
 * Calls that will not run because the turn was stopped (`running`: the first was under way and
 * was stopped while it ran): stored as stopped, so Retry is offered.
 */
async function recordStopped(deps: TurnDeps, sessionId: string, calls: ToolCall[], running = false): Promise<void> {
	const now = deps.now ?? Date.now;
	await appendMessages(
		deps.db,
		sessionId,
		calls.map((call, i) => ({
			id: crypto.randomUUID(),
			role: 'tool' as const,
			content: running && i === 0 ? 'Tool call stopped while it ran.' : 'Tool call stopped before it ran.',
			tool_call_id: call.id,
			status: 'aborted' as const,
			kind: 'message' as const,
			created_at: now()
		})),
		now()
	);
}
