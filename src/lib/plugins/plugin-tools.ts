// Tools that plugins register for the model to call. Handlers run under the hook timeout;
// their results reach the model as text.
import { callWithTimeout } from '../hooks/run-hook';
import type { ToolSchema } from '../providers/types';

export interface PluginTool extends ToolSchema {
	plugin_id: string;
	handler: (args: Record<string, unknown>, context: { session_id: string }) => unknown;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export class ToolRegistry {
	#tools = new Map<string, PluginTool>();
	readonly #timeoutMs: () => number;

	constructor(timeoutMs: () => number) {
		this.#timeoutMs = timeoutMs;
	}

	add(tool: PluginTool): () => void {
		if (!TOOL_NAME.test(tool.name)) {
			throw new Error(`Tool names are 1–64 letters, digits, "_" or "-"; "${tool.name}" is not.`);
		}
		if (typeof tool.handler !== 'function') throw new TypeError(`Tool "${tool.name}" needs a handler function.`);
		const owner = this.#tools.get(tool.name);
		if (owner) throw new Error(`A tool named "${tool.name}" is already registered by plugin "${owner.plugin_id}".`);
		this.#tools.set(tool.name, tool);
		return () => {
			if (this.#tools.get(tool.name) === tool) this.#tools.delete(tool.name);
		};
	}

	list(): PluginTool[] {
		return [...this.#tools.values()];
	}

	schemas(): ToolSchema[] {
		return this.list().map(({ name, description, parameters }) => ({ name, description, parameters }));
	}

	async run(name: string, args: Record<string, unknown>, context: { session_id: string }): Promise<string> {
		const tool = this.#tools.get(name);
		if (!tool) throw new Error(`The model called "${name}", which no enabled plugin provides.`);
		const timeoutMs = this.#timeoutMs();
		const settled = await callWithTimeout(() => tool.handler(structuredClone(args), { ...context }), timeoutMs);
		if (settled.timedOut) throw new Error(`Tool "${name}" did not answer within ${timeoutMs / 1000} s.`);
		const value = settled.value;
		return typeof value === 'string' ? value : JSON.stringify(value ?? null);
	}
}
