// How the results of collector and directive callbacks combine. Pure over plain data; the
// bus supplies the ordered registrations and the function that calls one of them.
import type { PreToolCallPayload } from './hook-payloads';
import { freezeClone } from './freeze-payload';
import { MAX_INJECTED_CHARS } from './injected-limit';
import { readDirective, readInjected } from './read-results';
import { sameArgs } from './same-args';
import type { HookCallResult, Registration } from './run-hook';

/** Context one plugin asked to add to the outgoing user message. */
export interface InjectedContext {
	plugin_id: string;
	text: string;
	/** Set when the plugin's text was cut to its budget: how many characters it returned. */
	cut_from?: number;
}

export interface ToolDecision {
	block: boolean;
	reason?: string;
	/** The arguments to run the tool with, present when some plugin replaced them. */
	args?: Record<string, unknown>;
	/** The plugin that blocked the call. */
	plugin_id?: string;
	/**
	 * The plugins whose `args` differed from the arguments they were given, in order; present
	 * when any did. A tool server's tool asks the user again before it runs with such arguments.
	 */
	rewritten_by?: string[];
}

/**
 * Calls one callback; `undefined` when its plugin went away before its turn came. An `ok`
 * value is already the app's own structured clone, so reading it runs no plugin code.
 */
type RunOne<P> = (reg: Registration, payload: P) => Promise<HookCallResult | undefined>;

/** The texts joined with blank lines, ready to append to the user message copy. */
export function joinInjected(items: readonly Pick<InjectedContext, 'text'>[]): string {
	return items.map((item) => item.text).join('\n\n');
}

/**
 * `concurrent`: plugins are called without waiting for one another (see HookBusOptions); each
 * plugin's own callbacks still run in turn, and the texts keep the registrations' order.
 */
export async function collectInjected<P>(
	regs: readonly Registration[],
	payload: P,
	run: RunOne<P>,
	signal?: AbortSignal,
	concurrent = false
): Promise<InjectedContext[]> {
	const texts = new Map<Registration, string>();
	await eachPluginInTurn(regs, concurrent, async (reg) => {
		// A stopped turn asks no more plugins: one-shot context is kept for the next request.
		if (signal?.aborted) return false;
		// A plugin disabled while this dispatch was running gets no further calls.
		if (!reg.active) return true;
		const result = await run(reg, payload);
		const text = result?.outcome === 'ok' ? readInjected(result.value).text : undefined;
		if (text) texts.set(reg, text);
		return true;
	});
	return capPerPlugin(
		regs.flatMap((reg) => {
			const text = texts.get(reg);
			return text ? [{ plugin_id: reg.plugin_id, text }] : [];
		})
	);
}

/** Each plugin's texts, in order, up to MAX_INJECTED_CHARS in all; a text past it is cut or left out. */
function capPerPlugin(items: InjectedContext[]): InjectedContext[] {
	const used = new Map<string, number>();
	return items.flatMap((item) => {
		const left = MAX_INJECTED_CHARS - (used.get(item.plugin_id) ?? 0);
		used.set(item.plugin_id, (used.get(item.plugin_id) ?? 0) + item.text.length);
		if (item.text.length <= left) return [item];
		return left > 0 ? [{ ...item, text: item.text.slice(0, left), cut_from: item.text.length }] : [];
	});
}

/**
 * Runs `step` for each registration in order, waiting for each. With `concurrent`, each
 * plugin's registrations form their own sequence and the plugins' sequences run at once. A
 * step that returns false ends its sequence (all of them, when not concurrent).
 */
export async function eachPluginInTurn(
	regs: readonly Registration[],
	concurrent: boolean,
	step: (reg: Registration) => Promise<boolean>,
	done: (pluginId: string) => void = () => {}
): Promise<void> {
	const sequences = concurrent ? groupByPlugin(regs) : [regs];
	await Promise.all(
		sequences.map(async (sequence) => {
			for (const [i, reg] of sequence.entries()) {
				if (!(await step(reg))) break;
				// Registrations are grouped by plugin: release each plugin as soon as it is done.
				if (sequence[i + 1]?.plugin_id !== reg.plugin_id) done(reg.plugin_id);
			}
		})
	);
}

function groupByPlugin(regs: readonly Registration[]): Registration[][] {
	const groups = new Map<string, Registration[]>();
	for (const reg of regs) {
		const group = groups.get(reg.plugin_id);
		if (group) group.push(reg);
		else groups.set(reg.plugin_id, [reg]);
	}
	return [...groups.values()];
}

export async function decideToolCall(
	regs: readonly Registration[],
	payload: PreToolCallPayload,
	run: RunOne<PreToolCallPayload>
): Promise<ToolDecision> {
	let args: Record<string, unknown> | undefined;
	const rewrittenBy: string[] = [];
	for (const reg of regs) {
		if (!reg.active) continue;
		// Replaced args reach the next guard as a frozen copy too, so it cannot change what runs.
		const result = await run(reg, args ? freezeClone({ ...payload, args }) : payload);
		if (!result) continue;
		// Fails closed: a guard that crashed, hung or is quarantined cannot wave a call through.
		if (result.outcome !== 'ok') return blocked(reg, failureReason(reg, result.outcome, result.error));
		const reading = readDirective(result.value);
		if (reading.block) {
			const reason = reading.block.badArgs
				? `Plugin "${reg.plugin_id}" returned args that are not a plain object; the tool call was blocked.`
				: (reading.block.reason ?? `Blocked by plugin "${reg.plugin_id}".`);
			return blocked(reg, reason);
		}
		if (reading.args) {
			if (!sameArgs(reading.args, args ?? payload.args) && !rewrittenBy.includes(reg.plugin_id)) rewrittenBy.push(reg.plugin_id);
			args = reading.args;
		}
	}
	if (!args) return { block: false };
	return rewrittenBy.length ? { block: false, args, rewritten_by: rewrittenBy } : { block: false, args };
}

function blocked(reg: Registration, reason: string): ToolDecision {
	return { block: true, reason, plugin_id: reg.plugin_id };
}

function failureReason(reg: Registration, outcome: string, error: string): string {
	const what = outcome === 'timeout' ? 'timed out' : outcome === 'skipped' ? 'is paused after a timeout' : `failed (${error})`;
	return `Plugin "${reg.plugin_id}" ${what} in pre_tool_call, so the tool call was blocked.`;
}
