// What counts as plain data from plugin code, and about how many bytes it holds. A bounded
// walk: it stops as soon as a limit is passed, so checking a hostile value costs at most the
// limit, never the value's own size. Pure; used where a plugin's values arrive in the page.

export interface PlainDataLimits {
	/** Most bytes, counted as measurePlainData counts them. */
	maxBytes: number;
	/** Deepest nesting of arrays, objects, maps and sets. */
	maxDepth?: number;
}

export type PlainDataCheck = { ok: true; bytes: number } | { ok: false; reason: string };

/** The most any one value from a plugin may hold (a returned value, a stored value, a log line's arguments). */
export const MAX_VALUE_BYTES = 1024 * 1024;
const DEFAULT_DEPTH = 64;

// Rough bytes of each part, close to what IndexedDB and structured clone keep: strings as
// UTF-16, a fixed cost per value and per key.
const SLOT = 8;
const ENTRY = 16;

/** Checks `value` against `limits`; the reason names the first thing that is not accepted. */
export function checkPlainData(value: unknown, limits: PlainDataLimits): PlainDataCheck {
	const walk = new Walk(limits.maxBytes, limits.maxDepth ?? DEFAULT_DEPTH);
	const reason = walk.visit(value, 0);
	return reason === null ? { ok: true, bytes: walk.bytes } : { ok: false, reason };
}

/** About how many bytes `value` holds once stored (plain data assumed; anything else counts as one slot). */
export function measurePlainData(value: unknown): number {
	const check = checkPlainData(value, { maxBytes: Number.POSITIVE_INFINITY, maxDepth: 10_000 });
	return check.ok ? check.bytes : SLOT;
}

/** "1.2 MB", "340 KB", "12 bytes": for limits and usage in messages. */
export function formatBytes(bytes: number): string {
	if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GB`;
	if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
	if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
	return `${bytes} bytes`;
}

class Walk {
	bytes = 0;
	readonly #seen = new Set<object>();
	readonly #max: number;
	readonly #depth: number;

	constructor(maxBytes: number, maxDepth: number) {
		this.#max = maxBytes;
		this.#depth = maxDepth;
	}

	/** null when accepted so far; otherwise why not. */
	visit(value: unknown, depth: number): string | null {
		const size = this.#leafSize(value);
		if (size !== null) return this.#add(size);
		if (typeof value !== 'object' || value === null) return `a ${typeof value} is not plain data`;
		// A value met again (a shared part or a cycle) is stored once.
		if (this.#seen.has(value)) return this.#add(SLOT);
		this.#seen.add(value);
		if (depth >= this.#depth) return `it is nested more than ${this.#depth} levels deep`;
		return this.#visitObject(value, depth + 1);
	}

	#add(size: number): string | null {
		this.bytes += size;
		return this.bytes > this.#max ? `it is over ${formatBytes(this.#max)}` : null;
	}

	#leafSize(value: unknown): number | null {
		switch (typeof value) {
			case 'string':
				return ENTRY + value.length * 2;
			case 'number':
			case 'boolean':
			case 'undefined':
				return SLOT;
			case 'bigint':
				return ENTRY + Math.ceil(value.toString(16).length / 2);
			case 'object':
				if (value === null) return SLOT;
				if (value instanceof Date) return ENTRY;
				if (value instanceof RegExp) return ENTRY + value.source.length * 2;
				if (value instanceof ArrayBuffer) return ENTRY + value.byteLength;
				if (ArrayBuffer.isView(value)) return ENTRY + value.byteLength;
				return null;
			default:
				return null;
		}
	}

	#visitObject(value: object, depth: number): string | null {
		if (Array.isArray(value)) {
			// Length first: a sparse array of a billion holes is one line of code to make.
			const failed = this.#add(ENTRY + value.length * SLOT);
			if (failed) return failed;
			for (const item of value) {
				const reason = this.visit(item, depth);
				if (reason) return reason;
			}
			return null;
		}
		if (value instanceof Map) {
			for (const [key, item] of value) {
				const reason = this.visit(key, depth) ?? this.visit(item, depth);
				if (reason) return reason;
			}
			return this.#add(ENTRY);
		}
		if (value instanceof Set) {
			for (const item of value) {
				const reason = this.visit(item, depth);
				if (reason) return reason;
			}
			return this.#add(ENTRY);
		}
		const proto = Object.getPrototypeOf(value);
		if (proto !== Object.prototype && proto !== null) return `${describeKind(value)} is not plain data`;
		const failed = this.#add(ENTRY);
		if (failed) return failed;
		for (const key of Object.keys(value)) {
			// An own "__proto__" key is harmless in a copy, but becomes a prototype if any code
			// ever assigns it field by field: refused at the door.
			if (key === '__proto__') return 'a key named "__proto__" is not accepted';
			const reason = this.#add(ENTRY + key.length * 2) ?? this.visit((value as Record<string, unknown>)[key], depth);
			if (reason) return reason;
		}
		return null;
	}
}

function describeKind(value: object): string {
	const name = Object.prototype.toString.call(value).slice(8, -1);
	return name === 'Object' ? 'an object with a class' : `a ${name}`;
}
