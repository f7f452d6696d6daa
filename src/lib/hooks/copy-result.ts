// A result crosses back from plugin code as plain data (DESIGN §7): the app then holds a copy
// the plugin can no longer reach, and a value that is not plain data, or is larger than any
// one value from a plugin may be, fails like a throw. Used where the call is made (the page)
// and where an isolated plugin returns (its own context).
import { checkPlainData, MAX_VALUE_BYTES } from './plain-data';

export function copyResult(value: unknown): unknown {
	let copy: unknown;
	try {
		copy = structuredClone(value);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(`returned a value that is not plain data (${reason})`, { cause: error });
	}
	const check = checkPlainData(copy, { maxBytes: MAX_VALUE_BYTES });
	if (!check.ok) throw new Error(`returned a value that was refused: ${check.reason}`);
	return copy;
}
