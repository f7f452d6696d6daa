// A result crosses back from plugin code as plain data (DESIGN §7): the app then holds a copy
// the plugin can no longer reach, and a value that is not plain data fails like a throw. Used
// where the call is made (the page) and where an isolated plugin returns (its own context).

export function copyResult(value: unknown): unknown {
	try {
		return structuredClone(value);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(`returned a value that is not plain data (${reason})`, { cause: error });
	}
}
