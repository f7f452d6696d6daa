// Tools that plugins register for the model to call. A tool is checked when it is registered,
// so a malformed schema is the plugin's error and never a provider's 400 on every request.
// Handlers run through the hook bus's choke point (timeout, 60 s skip, hook log); their
// results reach the model as text.
import { copyResult } from '../hooks/copy-result';
import { describeToolResult } from '../hooks/describe-result';
import { SUPPRESS_AFTER_TIMEOUT_MS, type PluginCaller, type PluginCallTarget } from '../hooks/run-hook';
import { describeValue, NO_ARGUMENTS, schemaProblem, TOOL_NAME } from '../hooks/tool-schema';
import type { ToolSchema } from '../providers/types';
import { toolBoundsMessage, toolBoundsProblem } from './tool-bounds';

export interface PluginTool extends ToolSchema {
	plugin_id: string;
	/** What requests carry of it: one object for as long as it is registered (the meter counts it once). */
	schema: Readonly<ToolSchema>;
	handler: (args: Record<string, unknown>, context: { session_id: string }) => unknown;
	/** The tool as the choke point knows it: a handler that timed out is skipped for 60 s. */
	target: PluginCallTarget;
}

/** What `ctx.register_tool` was given: untyped plugin input, checked by `ToolRegistry.add`. */
export interface ToolDefinitionInput {
	plugin_id: string;
	name: unknown;
	description?: unknown;
	parameters?: unknown;
	handler: unknown;
}


export class ToolRegistry {
	#tools = new Map<string, PluginTool>();
	#listeners = new Set<() => void>();
	readonly #caller: PluginCaller;

	constructor(caller: PluginCaller) {
		this.#caller = caller;
	}

	/** Throws, naming the plugin, the tool and what is wrong, for a tool providers would refuse. */
	add(input: ToolDefinitionInput): () => void {
		const tool = checkTool(input);
		const owner = this.#tools.get(tool.name);
		if (owner) throw new Error(`A tool named "${tool.name}" is already registered by plugin "${owner.plugin_id}".`);
		this.#tools.set(tool.name, tool);
		this.#changed();
		return () => {
			if (this.#tools.get(tool.name) !== tool) return;
			this.#tools.delete(tool.name);
			this.#changed();
		};
	}

	list(): PluginTool[] {
		return [...this.#tools.values()];
	}

	schemas(): ToolSchema[] {
		return this.list().map((tool) => tool.schema);
	}

	/** The plugin that offers the tool named `name`, if a plugin does. */
	ownerOf(name: string): string | undefined {
		return this.#tools.get(name)?.plugin_id;
	}

	/** `listener` is told each time a tool comes or goes (the meter counts the tools again). */
	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	#changed(): void {
		for (const listener of this.#listeners) listener();
	}

	/** The tool's result as text; throws with the plugin's error, a timeout or a skip. */
	async run(name: string, args: Record<string, unknown>, context: { session_id: string }): Promise<string> {
		const tool = this.#tools.get(name);
		if (!tool) throw new Error(`The model called "${name}", which no enabled plugin provides.`);
		const copy = structuredClone(args);
		const result = await this.#caller.callPlugin(tool.target, () => tool.handler(copy, { ...context }), {
			summary: `session_id=${context.session_id}`,
			read: (value) => {
				const copy = copyResult(value);
				return typeof copy === 'string' ? copy : String(JSON.stringify(copy ?? null));
			},
			describe: (text) => describeToolResult(text as string),
			payload: { args, context }
		});
		if (result.outcome === 'ok') return result.value as string;
		if (result.outcome === 'timeout') {
			throw new Error(`Tool "${name}" did not answer within ${result.timeoutMs / 1000} s; it is skipped for the next ${SUPPRESS_AFTER_TIMEOUT_MS / 1000} s.`);
		}
		if (result.outcome === 'skipped') {
			throw new Error(`Tool "${name}" is skipped for now: it did not answer in time less than ${SUPPRESS_AFTER_TIMEOUT_MS / 1000} s ago.`);
		}
		throw new Error(result.error);
	}
}

/** A registrable tool with its own copy of the schema, or an error saying what is wrong. */
function checkTool(input: ToolDefinitionInput): PluginTool {
	const { plugin_id, name, description, handler } = input;
	const label = typeof name === 'string' ? `tool "${name}"` : `a tool named ${describeValue(name)}`;
	const refuse = (problem: string) => new TypeError(`Plugin "${plugin_id}" cannot register ${label}: ${problem}.`);
	if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
		throw refuse(`the name must be 1–64 letters, digits, "_" or "-"`);
	}
	if (description !== undefined && typeof description !== 'string') {
		throw refuse(`description must be a string, not ${describeValue(description)}`);
	}
	if (typeof handler !== 'function') throw refuse('it needs a handler function');
	// Before the copy: a schema of megabytes is refused for what a look at its first 16 KB shows.
	const over = toolBoundsProblem(input);
	if (over) throw new RangeError(toolBoundsMessage(plugin_id, name, over));
	let parameters: unknown;
	try {
		parameters = structuredClone(input.parameters ?? NO_ARGUMENTS);
	} catch {
		throw refuse('parameters must be plain JSON data (no functions or class instances)');
	}
	const problem = schemaProblem(parameters);
	if (problem) throw refuse(problem);
	const schema = Object.freeze({ name, description: description ?? '', parameters: parameters as Record<string, unknown> });
	return {
		plugin_id,
		schema,
		name,
		description: description ?? '',
		parameters: parameters as Record<string, unknown>,
		handler: handler as PluginTool['handler'],
		target: { plugin_id, hook: `tool ${name}`, suppressedUntil: -Infinity }
	};
}
