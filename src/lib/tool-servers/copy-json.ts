// A copy of a value a tool server sent, taken only if it is plain JSON data within bounds. The
// check stops as soon as a bound is passed, so a hostile value (megabytes, thousands of levels)
// costs at most the bound, and the copy shares nothing with what the server's client parsed.
import { describeValue, isPlainObject } from '../hooks/tool-schema';

export interface JsonLimits {
	/** Most characters the value may take as compact JSON (counted about: escapes are not). */
	maxChars: number;
	/** Deepest nesting of objects and arrays; the outermost one is level 1. */
	maxDepth: number;
}

/** The copy, or why there is none, as the end of a sentence ("is nested more than 32 levels deep"). */
export type JsonCopy = { ok: true; value: unknown } | { ok: false; problem: string };

export function copyJson(value: unknown, limits: JsonLimits): JsonCopy {
	const problem = jsonProblem(value, limits);
	// Checked first, copied after: a refused value costs no allocation (10,000 of them stay cheap).
	return problem === null ? { ok: true, value: JSON.parse(JSON.stringify(value)) } : { ok: false, problem };
}

/** Why `value` is not plain JSON data within `limits`, or null when it is. */
export function jsonProblem(value: unknown, limits: JsonLimits): string | null {
	const walk: Walk = { ...limits, chars: 0, problem: null };
	check(value, 0, walk);
	return walk.problem;
}

// The walk returns rather than throws when it stops, for the same reason.
interface Walk extends JsonLimits {
	chars: number;
	problem: string | null;
}

/** False with `walk.problem` set when `value` passes a bound. */
function check(value: unknown, depth: number, walk: Walk): boolean {
	if (value === null || typeof value === 'boolean') return count(5, walk);
	if (typeof value === 'string') return count(value.length + 2, walk);
	if (typeof value === 'number') {
		return Number.isFinite(value) ? count(String(value).length, walk) : stop(`holds the number ${value}, which JSON cannot carry`, walk);
	}
	const isArray = Array.isArray(value);
	if (!isArray && !isPlainObject(value)) return stop(`holds ${describeValue(value)}, which is not JSON data`, walk);
	if (depth >= walk.maxDepth) return stop(`is nested more than ${walk.maxDepth} levels deep`, walk);
	if (isArray) {
		// Length first: an array of a billion holes is one line of code to make.
		if (!count(2 + value.length, walk)) return false;
		for (const item of value) if (!check(item, depth + 1, walk)) return false;
		return true;
	}
	if (!count(2, walk)) return false;
	for (const key of Object.keys(value as object)) {
		// An own "__proto__" key becomes a prototype wherever code copies the value field by field.
		if (key === '__proto__') return stop('has a key named "__proto__", which is not accepted', walk);
		if (!count(key.length + 4, walk) || !check((value as Record<string, unknown>)[key], depth + 1, walk)) return false;
	}
	return true;
}

function count(chars: number, walk: Walk): boolean {
	walk.chars += chars;
	return walk.chars <= walk.maxChars || stop(`is over ${walk.maxChars.toLocaleString('en')} characters as JSON`, walk);
}

function stop(problem: string, walk: Walk): false {
	walk.problem = problem;
	return false;
}
