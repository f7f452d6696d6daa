// A tool call whose arguments plugins changed: found by comparing what `pre_tool_call` decided
// with what the model chose, kept on the result's row, and said to the model before the result,
// so that the model, the transcript and "What the model received" all know what ran. Pure.
import type { ToolDecision } from '../hooks/dispatch-results';
import { sameArgs } from '../hooks/same-args';
import type { RanWith } from '../db/schema';
import type { ArgsRewrite } from '../tool-servers/approval-choices';

/** The rewrite, when the decided arguments are not the model's own (keys reordered are the same). */
export function findRewrite(modelArgs: Record<string, unknown>, decision: ToolDecision, pluginName: (id: string) => string): ArgsRewrite | undefined {
	if (!decision.args || sameArgs(decision.args, modelArgs)) return undefined;
	return { modelArgs, plugins: (decision.rewritten_by ?? []).map(pluginName) };
}

export function ranWithOf(args: Record<string, unknown>, rewrite: ArgsRewrite): RanWith {
	return { arguments: JSON.stringify(args), changed_by: rewrite.plugins };
}

/** The line the model reads before the tool's result. */
export function rewriteNote(ran: RanWith): string {
	const who = ran.changed_by.length ? `${ran.changed_by.length > 1 ? 'The plugins' : 'The plugin'} ${ran.changed_by.map((name) => JSON.stringify(name)).join(', ')}` : 'A plugin';
	return `[${who} changed the arguments of this call; the tool ran with ${ran.arguments}]`;
}
