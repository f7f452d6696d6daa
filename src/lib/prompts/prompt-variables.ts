// The `{{variables}}` of a saved prompt: which ones it asks for, in the order they first appear,
// and its text with them filled in. Pure.

/** A variable: `{{name}}`, spaces inside the braces allowed; a name of letters, digits, `_` and `-`. */
const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]{0,39})\s*\}\}/g;

/** The most variables one prompt asks for: a prompt saved here has no more, and one from elsewhere fills only these. */
export const MAX_VARIABLES = 20;

/** The distinct variables of `text`, in the order of their first appearance (at most MAX_VARIABLES). */
export function findVariables(text: string): string[] {
	const names: string[] = [];
	for (const match of text.matchAll(VARIABLE)) {
		if (names.includes(match[1])) continue;
		if (names.length === MAX_VARIABLES) break;
		names.push(match[1]);
	}
	return names;
}

/** How many distinct variables `text` holds, however many. */
export function countVariables(text: string): number {
	return new Set(Array.from(text.matchAll(VARIABLE), (match) => match[1])).size;
}

/**
 * `text` with each `{{name}}` of `values` replaced by its value, as written (a `$` in a value is
 * a dollar sign); variables without a value stay as they are.
 */
export function fillVariables(text: string, values: Readonly<Record<string, string>>): string {
	return text.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}
