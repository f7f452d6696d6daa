// What the app makes of one collector or directive return value. The dispatch uses these
// readings to act, and the hook log uses the same readings to say what happened, so the log
// can never claim something the app did not do. Pure over already-cloned plain data.

/** A `pre_llm_call` return, read: the text to add, or why nothing was added. */
export interface InjectedReading {
	/** The trimmed text to append; undefined when nothing is added. */
	text?: string;
	/** Set when the value was not one the app can use: what was expected instead. */
	warning?: string;
}

export const INJECTED_EXPECTED = 'a string, { context: string }, or nothing';

export function readInjected(value: unknown): InjectedReading {
	if (value === undefined || value === null) return {};
	if (typeof value === 'string') return value.trim() ? { text: value.trim() } : {};
	if (isRecord(value)) {
		if (!('context' in value)) {
			return { warning: `Expected ${INJECTED_EXPECTED}; got ${describeShape(value)}. Nothing was added.` };
		}
		const context = value.context;
		if (typeof context === 'string') return context.trim() ? { text: context.trim() } : {};
		if (context === undefined || context === null) return {};
		return { warning: `Expected context to be a string; got ${describeShape(context)}. Nothing was added.` };
	}
	return { warning: `Expected ${INJECTED_EXPECTED}; got ${describeShape(value)}. Nothing was added.` };
}

/** A `pre_tool_call` return, read. `block` with a reason, replaced `args`, or neither (pass). */
export interface DirectiveReading {
	/** `badArgs`: not the plugin's choice but the fail-closed answer to args that cannot run. */
	block?: { reason?: string; badArgs?: true };
	args?: Record<string, unknown>;
	warning?: string;
}

const DIRECTIVE_FIELDS = new Set(['block', 'reason', 'args']);
export const DIRECTIVE_EXPECTED = '{ block: true, reason }, { args }, or nothing';

export function readDirective(value: unknown): DirectiveReading {
	if (value === undefined || value === null) return {};
	if (!isRecord(value)) {
		return { warning: `Expected ${DIRECTIVE_EXPECTED}; got ${describeShape(value)}. The call was let through.` };
	}
	const unknown = Object.keys(value).filter((key) => !DIRECTIVE_FIELDS.has(key));
	const unknownNote = unknown.length
		? `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (expected block, reason, args) ${unknown.length > 1 ? 'were' : 'was'} ignored.`
		: undefined;
	if (value.block === true) {
		const reason = typeof value.reason === 'string' && value.reason ? value.reason : undefined;
		const badReason = value.reason !== undefined && typeof value.reason !== 'string' ? `reason should be a string; got ${describeShape(value.reason)}.` : undefined;
		return { block: { reason }, ...joinWarnings(badReason, unknownNote) };
	}
	const badBlock =
		value.block !== undefined && value.block !== false
			? `block must be true to block; got ${describeShape(value.block)}, so the call was not blocked.`
			: undefined;
	if (value.args === undefined) return joinWarnings(badBlock, unknownNote);
	if (!isRecord(value.args)) {
		// Fails closed: the plugin meant to change what runs, and what it gave cannot run.
		return {
			block: { badArgs: true },
			warning: `args must be a plain object; got ${describeShape(value.args)}. The tool call was blocked.`
		};
	}
	return { args: value.args, ...joinWarnings(badBlock, unknownNote) };
}

function joinWarnings(...parts: (string | undefined)[]): { warning?: string } {
	const text = parts.filter(Boolean).join(' ');
	return text ? { warning: text } : {};
}

/** A short phrase for a value's shape in a warning: `the number 42`, `an object with keys text`. */
export function describeShape(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'undefined';
	if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}`;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `the ${typeof value} ${String(value)}`;
	if (Array.isArray(value)) return `an array of ${value.length}`;
	if (isRecord(value)) {
		const keys = Object.keys(value);
		return keys.length ? `an object with key${keys.length > 1 ? 's' : ''} ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}` : 'an empty object';
	}
	return `a ${typeof value}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
