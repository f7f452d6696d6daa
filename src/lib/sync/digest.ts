// A short digest of a field's value (cyrb53 over its JSON): sync keeps one per synced field of a
// message as last stamped, and a field whose digest moved was edited on this device since. Not a
// security measure: a collision only delays an edit until the field changes again.

/** The digest of `value` (undefined counts as null). */
export function digest(value: unknown): string {
	const text = JSON.stringify(value ?? null);
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ code, 2654435761);
		h2 = Math.imul(h2 ^ code, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36) + ':' + text.length.toString(36);
}
