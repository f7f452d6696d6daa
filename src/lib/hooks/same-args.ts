// Whether two sets of tool arguments are the same call: compared as the JSON a tool receives,
// with the keys of every object in sorted order, so a plugin that hands the arguments back
// with their keys reordered has not changed them. Pure.

/** The arguments as the JSON a tool receives, each object's keys sorted. */
export function canonicalArgs(args: unknown): string {
	return JSON.stringify(args, (_key, value: unknown) =>
		value && typeof value === 'object' && !Array.isArray(value)
			? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
			: value
	);
}

/** Arguments that cannot be written as JSON (a cycle, a BigInt) are the same as nothing. */
export function sameArgs(a: unknown, b: unknown): boolean {
	try {
		return canonicalArgs(a) === canonicalArgs(b);
	} catch {
		return false;
	}
}
