// How large one plugin tool may be. Every request to the model carries every tool, so a tool's
// size is paid again on each one: its name, description and parameters are bounded where it
// is registered (in the plugin's own context, again where the broker receives it, and in the
// page's tool registry). The walk over the parameters stops as soon as a bound is passed, so a
// hostile schema costs at most the bound to look at, never its own size. Pure.
import { formatBytes } from '../hooks/plain-data';

/** The providers' own rule for a function name (see hooks/tool-schema.ts). */
export const MAX_TOOL_NAME_CHARS = 64;
export const MAX_TOOL_DESCRIPTION_CHARS = 4_000;
/** The parameters' JSON Schema, as the JSON a request carries. */
export const MAX_TOOL_PARAMETERS_CHARS = 16 * 1024;
/** Levels of objects and arrays in the parameters, the schema object itself the first. */
export const MAX_TOOL_PARAMETERS_DEPTH = 16;

export interface ToolParts {
	name: unknown;
	description?: unknown;
	parameters?: unknown;
}

/** What is over the bounds of a tool, worded for the plugin's author, or null when it is within them. */
export function toolBoundsProblem({ name, description, parameters }: ToolParts): string | null {
	if (typeof name === 'string' && name.length > MAX_TOOL_NAME_CHARS) {
		return `its name has ${name.length.toLocaleString('en')} characters, over the ${MAX_TOOL_NAME_CHARS} a tool's name may have`;
	}
	if (typeof description === 'string' && description.length > MAX_TOOL_DESCRIPTION_CHARS) {
		return `its description has ${description.length.toLocaleString('en')} characters, over the ${MAX_TOOL_DESCRIPTION_CHARS.toLocaleString('en')} a tool's description may have`;
	}
	const walk = new JsonWalk(MAX_TOOL_PARAMETERS_CHARS, MAX_TOOL_PARAMETERS_DEPTH);
	const over = walk.visit(parameters, 1);
	if (over === 'depth') return `its parameters are nested more than ${MAX_TOOL_PARAMETERS_DEPTH} levels deep, the most a tool's parameters may be`;
	if (over === 'size') return `its parameters take more than ${formatBytes(MAX_TOOL_PARAMETERS_CHARS)} as JSON, the most a tool's parameters may take`;
	return null;
}

/** The refusal a plugin sees, naming it and the tool (a name of any size is cut to fit a line). */
export function toolBoundsMessage(pluginId: string, name: unknown, problem: string): string {
	const label = typeof name === 'string' ? JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name) : 'without a name';
	return `Plugin "${pluginId}" cannot register tool ${label}: ${problem}.`;
}

/** Counts the characters JSON.stringify would write, stopping at the first bound passed. */
class JsonWalk {
	#chars = 0;
	readonly #max: number;
	readonly #depth: number;

	constructor(maxChars: number, maxDepth: number) {
		this.#max = maxChars;
		this.#depth = maxDepth;
	}

	/** null while within the bounds; which bound was passed otherwise. */
	visit(value: unknown, depth: number): 'size' | 'depth' | null {
		if (typeof value === 'string') return this.#add(value.length + 2);
		if (typeof value === 'number') return this.#add(Number.isFinite(value) ? String(value).length : 4);
		if (typeof value === 'boolean') return this.#add(value ? 4 : 5);
		if (typeof value !== 'object' || value === null) return this.#add(4);
		// A cycle, too, goes deeper without end.
		if (depth > this.#depth) return 'depth';
		if (Array.isArray(value)) {
			// Its commas first: a sparse array of a billion holes is one line of code to make.
			const over = this.#add(2 + Math.max(0, value.length - 1));
			if (over) return over;
			for (const item of value) {
				const inner = this.visit(item, depth + 1);
				if (inner) return inner;
			}
			return null;
		}
		const over = this.#add(2);
		if (over) return over;
		let entries = 0;
		for (const key of Object.keys(value)) {
			const item = (value as Record<string, unknown>)[key];
			if (item === undefined || typeof item === 'function') continue;
			// Its quotes and colon, and the comma before it.
			const inner = this.#add(key.length + 3 + (entries++ > 0 ? 1 : 0)) ?? this.visit(item, depth + 1);
			if (inner) return inner;
		}
		return null;
	}

	#add(chars: number): 'size' | null {
		this.#chars += chars;
		return this.#chars > this.#max ? 'size' : null;
	}
}
