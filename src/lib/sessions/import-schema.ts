// Parsers for the fields of an imported file. Each one accepts a value only in the type and
// range the app stores and returns a fresh copy, so nothing of the file's own objects (unknown
// fields, odd prototypes, values the app never writes) reaches the database. Pure.

/** A value that does not fit; `path` leads from the row to the field (`tool_calls`, `0`, `name`). */
export class FieldError extends Error {
	constructor(
		readonly path: string[],
		readonly value: unknown,
		readonly expected: string
	) {
		super(`${path.join('.')}: expected ${expected}`);
		this.name = 'FieldError';
	}
}

/** Reads one value; throws a FieldError when it does not fit. `dropped` counts unknown fields left out. */
export type Parse<T> = (value: unknown, dropped: { fields: number }) => T;

function fail(value: unknown, expected: string): never {
	throw new FieldError([], value, expected);
}

/** The error `error` of the value at `key`, with the key added to its path. */
function within(key: string, error: unknown): unknown {
	return error instanceof FieldError ? new FieldError([key, ...error.path], error.value, error.expected) : error;
}

export function text(max: number, { nonEmpty = false } = {}): Parse<string> {
	const expected = `${nonEmpty ? 'non-empty ' : ''}text of at most ${max.toLocaleString('en')} characters`;
	return (v) => (typeof v === 'string' && v.length <= max && (!nonEmpty || v.length > 0) ? v : fail(v, expected));
}

/** A finite number in [min, max]; whole numbers only with `integer`. NaN, Infinity and 1e300 never pass. */
export function number(min: number, max: number, { integer = false } = {}): Parse<number> {
	const expected = `${integer ? 'a whole number' : 'a number'} from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`;
	return (v) =>
		typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!integer || Number.isInteger(v)) ? v : fail(v, expected);
}

export function oneOf<const T extends readonly (string | number)[]>(values: T): Parse<T[number]> {
	const expected = values.map((v) => JSON.stringify(v)).join(', ');
	return (v) => (values.includes(v as T[number]) ? (v as T[number]) : fail(v, expected));
}

export function nullable<T>(parse: Parse<T>): Parse<T | null> {
	return (v, dropped) => {
		if (v === null) return null;
		try {
			return parse(v, dropped);
		} catch (error) {
			if (error instanceof FieldError && !error.path.length) fail(v, `${error.expected} or null`);
			throw error;
		}
	};
}

/** A missing field takes `fallback` (older files may lack fields added since). */
export function withDefault<T>(parse: Parse<T>, fallback: () => T): Parse<T> {
	return (v, dropped) => (v === undefined ? fallback() : parse(v, dropped));
}

export function list<T>(item: Parse<T>, maxItems: number): Parse<T[]> {
	return (v, dropped) => {
		if (!Array.isArray(v) || v.length > maxItems) fail(v, `a list of at most ${maxItems.toLocaleString('en')} items`);
		const out: T[] = new Array(v.length);
		let index = 0;
		try {
			for (; index < v.length; index++) out[index] = item(v[index], dropped);
		} catch (error) {
			throw within(String(index), error);
		}
		return out;
	};
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * How to read each field of a stored shape `T`. The compiler makes the table name every field
 * of `T`, required or optional, so a field added to a row shape cannot be forgotten here.
 */
export interface Shape<T> {
	required: { [K in RequiredKeys<T>]-?: Parse<T[K]> };
	optional: { [K in OptionalKeys<T>]-?: Parse<Exclude<T[K], undefined>> };
}

/**
 * An object with exactly the fields of `shape`: required ones checked, optional ones checked
 * when present (and left out when absent), `ignored` ones left out, any other field dropped
 * and counted.
 */
export function record<T>(shape: Shape<T>, expected = 'an object', { ignored = [] as readonly string[] } = {}): Parse<T> {
	const fields = [...Object.entries(shape.required), ...Object.entries(shape.optional)] as [string, Parse<unknown>][];
	const names = fields.map(([key]) => key);
	const parsers = fields.map(([, parse]) => parse);
	const firstOptional = Object.keys(shape.required).length;
	const known = new Set([...names, ...ignored]);
	// Runs once per row of a file with a hundred thousand of them: one loop over flat lists,
	// no closure or try block per field, and the row's key list walked only when it holds a
	// field not read here.
	return (v, dropped) => {
		if (!isPlainObject(v)) fail(v, expected);
		const out: Record<string, unknown> = {};
		let read = 0;
		let i = 0;
		try {
			for (; i < names.length; i++) {
				const name = names[i];
				// Own fields only: nothing is read through the object's prototype.
				const own = Object.hasOwn(v, name);
				if (own) read += 1;
				const value = own ? v[name] : undefined;
				if (i < firstOptional) out[name] = parsers[i](value, dropped);
				else if (value !== undefined) out[name] = parsers[i](value, dropped);
			}
		} catch (error) {
			throw within(names[i], error);
		}
		for (const name of ignored) if (Object.hasOwn(v, name)) read += 1;
		const keys = Object.keys(v);
		if (keys.length !== read) for (const name of keys) if (!known.has(name)) dropped.fields += 1;
		return out as T;
	};
}

/**
 * Plain JSON data (a provider's own item, kept to be sent back unchanged): objects, lists,
 * text, finite numbers, true, false and null, at most `depth` levels deep and `maxChars`
 * characters as JSON. Returns a fresh copy made of own fields only.
 */
export function json(maxChars: number, depth = 32): Parse<unknown> {
	const expected = `JSON data of at most ${maxChars.toLocaleString('en')} characters`;
	return (v) => {
		let size = 0;
		const copy = (value: unknown, level: number): unknown => {
			if (level > depth || (size += 8) > maxChars) fail(v, expected);
			if (value === null || typeof value === 'boolean') return value;
			if (typeof value === 'number') return Number.isFinite(value) ? value : fail(v, expected);
			if (typeof value === 'string') return (size += value.length) > maxChars ? fail(v, expected) : value;
			if (Array.isArray(value)) return value.map((item) => copy(item, level + 1));
			if (!isPlainObject(value)) return fail(v, expected);
			const out: Record<string, unknown> = {};
			for (const key of Object.keys(value)) {
				size += key.length;
				Object.defineProperty(out, key, { value: copy(value[key], level + 1), enumerable: true, writable: true, configurable: true });
			}
			return out;
		};
		return copy(v, 0);
	};
}

export const bool: Parse<boolean> = (v) => (typeof v === 'boolean' ? v : fail(v, 'true or false'));
