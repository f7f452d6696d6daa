// Bounded renderings of plain data for the hook log: a one-line preview for stored rows, and
// a longer indented one for a row's details. Never the whole of a long conversation.

export interface PreviewLimits {
	/** Longest rendering; the rest is cut with an ellipsis. */
	maxChars: number;
	/** Longest string value before it is cut. */
	maxString: number;
	/** Most array items, map entries or object keys shown. */
	maxItems: number;
	/** Two-space indentation per level, or one line. */
	indent: boolean;
}

export const DETAIL_LIMITS: PreviewLimits = { maxChars: 6000, maxString: 400, maxItems: 20, indent: true };
export const LINE_LIMITS: PreviewLimits = { maxChars: 100, maxString: 60, maxItems: 6, indent: false };

/** Renders structured-cloneable data as JSON-like text within `limits` (cycles and all). */
export function previewValue(value: unknown, limits: PreviewLimits = DETAIL_LIMITS): string {
	const text = render(value, limits, 0, new Set());
	return text.length <= limits.maxChars ? text : `${text.slice(0, limits.maxChars - 1)}…`;
}

/** Text on one line, whitespace collapsed, cut to `max` characters. */
export function oneLine(text: string, max: number): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function render(value: unknown, limits: PreviewLimits, depth: number, seen: Set<object>): string {
	if (value === undefined) return 'undefined';
	if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value);
	if (typeof value === 'bigint') return `${value}n`;
	if (typeof value === 'string') {
		const cut = value.length > limits.maxString ? `${value.slice(0, limits.maxString - 1)}…` : value;
		return JSON.stringify(cut) + (value.length > limits.maxString ? ` (${value.length} chars)` : '');
	}
	if (typeof value !== 'object') return `[${typeof value}]`;
	if (seen.has(value)) return '[circular]';
	if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
	// Deep structures are cut early: the rendering is capped anyway, so stop building it.
	if (depth > 6) return Array.isArray(value) ? `[… ${value.length} items]` : '{…}';
	seen.add(value);
	try {
		if (Array.isArray(value)) return list('[', ']', value.map((item) => item), (item) => render(item, limits, depth + 1, seen), limits, depth);
		if (value instanceof Map) {
			const entries = [...value.entries()];
			return `Map ${list('{', '}', entries, ([k, v]) => `${render(k, limits, depth + 1, seen)} => ${render(v, limits, depth + 1, seen)}`, limits, depth)}`;
		}
		if (value instanceof Set) return `Set ${list('[', ']', [...value], (item) => render(item, limits, depth + 1, seen), limits, depth)}`;
		const entries = Object.entries(value);
		return list('{', '}', entries, ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${render(v, limits, depth + 1, seen)}`, limits, depth);
	} finally {
		seen.delete(value);
	}
}

function list<T>(open: string, close: string, items: T[], show: (item: T) => string, limits: PreviewLimits, depth: number): string {
	if (!items.length) return `${open}${close}`;
	const shown = items.slice(0, limits.maxItems).map(show);
	if (items.length > limits.maxItems) shown.push(`… ${items.length - limits.maxItems} more`);
	if (!limits.indent) return `${open} ${shown.join(', ')} ${close}`;
	const pad = '  '.repeat(depth + 1);
	return `${open}\n${shown.map((s) => pad + s).join(',\n')}\n${'  '.repeat(depth)}${close}`;
}
