// Images as bytes, wherever they come from (a tool's result, an imported file): the four types
// every browser and provider takes, how large one may be, a check that the bytes begin as their
// type says, and base64 both ways (the form MCP, export files and providers carry them in).

/** The image types shown inline and sent on to providers. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** The largest image kept, decoded. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const ascii = (bytes: Uint8Array, from: number, text: string) => [...text].every((char, i) => bytes[from + i] === char.charCodeAt(0));

/** Whether `bytes` begin with the signature of `type` (one of IMAGE_TYPES). */
export function looksLikeImage(type: string, bytes: Uint8Array): boolean {
	switch (type) {
		case 'image/png':
			return bytes[0] === 0x89 && ascii(bytes, 1, 'PNG\r\n\u001a\n');
		case 'image/jpeg':
			return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
		case 'image/gif':
			return ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a');
		case 'image/webp':
			return ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP');
		default:
			return false;
	}
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `text` is base64 (standard alphabet, padded). */
export function isBase64(text: string): boolean {
	return text.length % 4 === 0 && BASE64.test(text);
}

/** Base64 (checked with isBase64) to its bytes. */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
	const text = atob(base64);
	const bytes = new Uint8Array(text.length);
	for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
	return bytes;
}

/** Bytes to base64, a slice at a time (a spread of millions of arguments would overflow the stack). */
export function encodeBase64(bytes: Uint8Array): string {
	const chunks: string[] = [];
	for (let at = 0; at < bytes.length; at += 0x8000) chunks.push(String.fromCharCode(...bytes.subarray(at, at + 0x8000)));
	return btoa(chunks.join(''));
}

/** Bytes decoded from base64 of this many characters. */
export function decodedBytes(base64: string): number {
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}
