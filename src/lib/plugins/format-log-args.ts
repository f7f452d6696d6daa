// One line of text from what a plugin passed to ctx.log, as a console would show it: strings
// as they are, errors with their message, other values as bounded JSON-like text.
import { LINE_LIMITS, previewValue } from '../hooks/preview-value';

const VALUE_LIMITS = { ...LINE_LIMITS, maxChars: 1000, maxString: 400, maxItems: 20 };

export function formatLogArgs(args: readonly unknown[]): string {
	return args.map(formatOne).join(' ');
}

function formatOne(value: unknown): string {
	// A plugin's value can be anything, getters and proxies included: never let logging throw.
	try {
		if (typeof value === 'string') return value;
		if (value instanceof Error) return `${value.name}: ${value.message}`;
		if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
		return previewValue(value, VALUE_LIMITS);
	} catch {
		return '[unprintable value]';
	}
}
