// A request the meter says cannot fit the model's window is not sent when plugins' tools are
// what makes it too large: every request carries every tool, so no compaction of the
// conversation can make room for them, and the provider would only refuse it (after the
// whole body, megabytes perhaps, went out). The turn ends with an error naming the plugins
// whose tools, largest first, take the room, and how much.
import { boundSession, estimateSession } from '../context/estimate-session';
import type { CompactionDeps } from './compaction-types';

/**
 * `least`: before anything of the turn runs, with only what no compaction can shrink (the
 * system prompt, the tools and the room kept for the answer); `whole`: the request as it is
 * about to go. Returns the error to show, or null when the request fits or plugin tools are
 * not what keeps it from fitting.
 */
export async function oversizedTools(deps: CompactionDeps, sessionId: string, injected: readonly string[], conversation: 'least' | 'whole'): Promise<string | null> {
	const tools = deps.request.toolSchemas ?? [];
	const ownerOf = deps.toolOwner;
	if (!tools.length || !ownerOf) return null;
	const extras = { ...deps.request, injected };
	// A bound of one token per character needs no counting: almost every request is far below it.
	if ((await boundSession(deps.db, sessionId, deps.model, extras)) <= deps.windowTokens) return null;
	const estimate = await estimateSession(deps.db, deps.counter, sessionId, deps.model, extras);
	if (!estimate) return null;
	const { parts, toolCounts } = estimate;
	const total = conversation === 'whole' ? parts.total : parts.systemPrompt + parts.systemOverhead + parts.toolSchemas + parts.reservedOutput;
	if (total <= deps.windowTokens) return null;
	// On the meter's scale: the provider's own count, when it gave one, scales every part alike.
	const counted = toolCounts.reduce((a, b) => a + b, 0);
	const scale = counted > 0 ? parts.toolSchemas / counted : 0;
	const byPlugin = new Map<string, { name: string; tokens: number }>();
	tools.forEach((tool, index) => {
		const owner = ownerOf(String((tool as { name?: unknown }).name));
		if (!owner) return;
		const entry = byPlugin.get(owner.id) ?? { name: owner.name, tokens: 0 };
		entry.tokens += toolCounts[index] * scale;
		byPlugin.set(owner.id, entry);
	});
	const named: Array<{ name: string; tokens: number }> = [];
	let rest = total;
	for (const plugin of [...byPlugin.values()].sort((a, b) => b.tokens - a.tokens)) {
		if (rest <= deps.windowTokens) break;
		named.push(plugin);
		rest -= plugin.tokens;
	}
	// Without every plugin's tools it would still not fit: that is the conversation's or the system prompt's size.
	if (!named.length || rest > deps.windowTokens) return null;
	return describeOversized(named, Math.round(total), deps.windowTokens);
}

function describeOversized(plugins: ReadonlyArray<{ name: string; tokens: number }>, total: number, windowTokens: number): string {
	const tokens = (n: number) => `${Math.round(n).toLocaleString('en')} tokens`;
	const each = plugins.map((plugin) => `"${plugin.name}" (${tokens(plugin.tokens)})`);
	const list = each.length === 1 ? each[0] : `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
	const whose = plugins.length === 1 ? `the tools of plugin ${list} make` : `the tools of plugins ${list} make`;
	return (
		`Nothing was sent: ${whose} the request ${tokens(total)}, more than the model's context window of ${tokens(windowTokens)}. ` +
		`Turn ${plugins.length === 1 ? 'the plugin' : 'those plugins'} off on the Plugins page, or choose a model with a larger window.`
	);
}
