// What every provider takes as a tool (Chat Completions, Responses and Anthropic alike): a name
// of 1–64 letters, digits, "_" or "-", and a JSON Schema object for its arguments. Checked where
// tools arrive, so a malformed one is refused there and never becomes a provider's 400 on every
// request: plugin tools when they are registered, a tool server's tools when they are listed.

/** The providers' rule for function names. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The schema of a tool that takes no arguments. */
export const NO_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object', properties: {} });

/** What providers would reject in a tool's argument schema, or null; `label` names it in the message. */
export function schemaProblem(schema: unknown, label = 'parameters'): string | null {
	if (!isPlainObject(schema)) return `${label} must be a JSON Schema object, not ${describeValue(schema)}`;
	if (schema.type !== 'object') {
		return `${label}.type must be "object", not ${describeValue(schema.type)}`;
	}
	const { properties, required } = schema;
	if (properties !== undefined) {
		if (!isPlainObject(properties)) return `${label}.properties must be an object, not ${describeValue(properties)}`;
		for (const [key, property] of Object.entries(properties)) {
			if (!isPlainObject(property)) {
				return `${label}.properties.${key} must be a JSON Schema object such as { "type": "string" }, not ${describeValue(property)}`;
			}
		}
	}
	if (required !== undefined) {
		if (!Array.isArray(required)) return `${label}.required must be an array of property names, not ${describeValue(required)}`;
		for (const key of required) {
			if (typeof key !== 'string') return `${label}.required must list property names (strings), not ${describeValue(key)}`;
			if (!isPlainObject(properties) || !Object.hasOwn(properties, key)) {
				return `${label}.required names "${key}", which is not in ${label}.properties`;
			}
		}
	}
	return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null) return false;
	const proto = Object.getPrototypeOf(value);
	return proto === Object.prototype || proto === null;
}

/** A short phrase for a value in an error message: `the string "x"`, `an array`, `5`. */
export function describeValue(value: unknown): string {
	if (value === null || value === undefined) return String(value);
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value === 'object') return isPlainObject(value) ? 'an object' : `a ${value.constructor?.name ?? 'class instance'}`;
	return `a ${typeof value}`;
}
