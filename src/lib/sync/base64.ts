// Base64 (the standard alphabet, padded) for the bytes sync sends inside JSON: sealed bodies,
// IVs, salts and sealed attachments. The browser's own codec where it has one (Uint8Array's
// toBase64 and fromBase64), else a slice at a time through btoa and atob.

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type NativeBase64 = { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> };
type NativeBytes = Uint8Array & { toBase64?: () => string };

/** Bytes to base64. */
export function toBase64(bytes: Uint8Array): string {
	const native = (bytes as NativeBytes).toBase64;
	if (native) return native.call(bytes);
	// A slice at a time: a spread of millions of arguments would overflow the stack.
	let text = '';
	for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
	return btoa(text);
}

/** The bytes of `text`, or null when it is not base64 (padded, no whitespace). */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
	if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
	const native = (Uint8Array as unknown as NativeBase64).fromBase64;
	if (native) return native(text);
	const binary = atob(text);
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}
