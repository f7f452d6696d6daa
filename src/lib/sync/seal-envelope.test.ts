// The envelope of an encrypted document: what is sealed opens only as sealed (the same key, the
// same document, the same attachment name, not one byte changed), and no IV is ever used twice.
import { beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './base64';
import { openBytes, openJson, readSealed, sealBytes, sealJson, Unauthentic, type DocumentKey, type Sealed } from './seal-envelope';

let key: DocumentKey;
let other: DocumentKey;

async function randomKey(kid: string): Promise<DocumentKey> {
	return { kid, key: await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']) };
}

beforeAll(async () => {
	key = await randomKey('key-one-aaaaaaaaaaaaaa');
	other = await randomKey('key-two-bbbbbbbbbbbbbb');
});

/** `text` (base64) with one byte changed at `at`. */
function flipByte(text: string, at: number): string {
	const bytes = fromBase64(text)!;
	bytes[at] ^= 0x01;
	return toBase64(bytes);
}

const body = { format: 2, fields: { content: 'the secret plan', role: 'user' } };
const ID = 'msg:s-1:01JGZ8Q5W8F3V2M1N0P9Q8R7S6';

describe('a sealed body', () => {
	it('opens to what was sealed, and its envelope shows nothing of it', async () => {
		const sealed = await sealJson(key, ID, body);
		expect(Object.keys(sealed).sort()).toEqual(['ct', 'iv', 'kid', 'v']);
		expect(JSON.stringify(sealed)).not.toContain('secret');
		expect(await openJson(key, ID, sealed)).toEqual(body);
	});

	it('never uses an IV twice, even for the same body', async () => {
		const sealed = await Promise.all(Array.from({ length: 2_000 }, () => sealJson(key, ID, body)));
		expect(new Set(sealed.map((one) => one.iv)).size).toBe(2_000);
		expect(new Set(sealed.map((one) => one.ct)).size).toBe(2_000);
		expect(fromBase64(sealed[0].iv)).toHaveLength(12);
	});

	it('is bound to its document: moved to another id, it is refused', async () => {
		const sealed = await sealJson(key, ID, body);
		await expect(openJson(key, ID.replace('s-1', 's-2'), sealed)).rejects.toBeInstanceOf(Unauthentic);
		await expect(openJson(key, 'session:s-1', sealed)).rejects.toBeInstanceOf(Unauthentic);
	});

	it('is refused with one byte of its ciphertext or IV changed, cut short, or under another key', async () => {
		const sealed = await sealJson(key, ID, body);
		const tampered: Sealed[] = [
			{ ...sealed, ct: flipByte(sealed.ct, 0) },
			{ ...sealed, ct: flipByte(sealed.ct, fromBase64(sealed.ct)!.length - 1) },
			{ ...sealed, iv: flipByte(sealed.iv, 5) },
			{ ...sealed, ct: toBase64(fromBase64(sealed.ct)!.slice(0, -1)) },
			{ ...sealed, ct: '' },
			{ ...sealed, kid: other.kid }
		];
		for (const one of tampered) await expect(openJson(key, ID, one)).rejects.toBeInstanceOf(Unauthentic);
		await expect(openJson(other, ID, { ...sealed, kid: other.kid })).rejects.toBeInstanceOf(Unauthentic);
	});

	it('is read from the server only in its one shape', () => {
		const sealed = { v: 1, kid: key.kid, iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAA' };
		expect(readSealed(sealed)).toEqual(sealed);
		expect(readSealed({ ...sealed, v: 2 })).toBeNull();
		expect(readSealed({ ...sealed, extra: 1 })).toBeNull();
		expect(readSealed({ ...sealed, kid: 'short' })).toBeNull();
		expect(readSealed({ ...sealed, ct: 42 })).toBeNull();
		expect(readSealed([sealed])).toBeNull();
	});
});

describe('sealed attachment bytes', () => {
	const bytes = new TextEncoder().encode('%PDF-1.7 the secret file');

	it('open to what was sealed, only for their document and name, with no byte changed', async () => {
		const sealed = await sealBytes(key, 'blob:s-1:f-1', 'data', bytes);
		expect(new TextDecoder().decode(sealed)).not.toContain('secret');
		expect(await openBytes(key, 'blob:s-1:f-1', 'data', sealed)).toEqual(bytes);
		await expect(openBytes(key, 'blob:s-1:f-2', 'data', sealed)).rejects.toBeInstanceOf(Unauthentic);
		await expect(openBytes(key, 'blob:s-1:f-1', 'other', sealed)).rejects.toBeInstanceOf(Unauthentic);
		await expect(openBytes(other, 'blob:s-1:f-1', 'data', sealed)).rejects.toBeInstanceOf(Unauthentic);
		for (const at of [1, 13, sealed.length - 1]) {
			const changed = sealed.slice();
			changed[at] ^= 0x80;
			await expect(openBytes(key, 'blob:s-1:f-1', 'data', changed)).rejects.toBeInstanceOf(Unauthentic);
		}
	});

	it('never reuse an IV', async () => {
		const sealed = await Promise.all(Array.from({ length: 500 }, () => sealBytes(key, 'blob:s-1:f-1', 'data', bytes)));
		expect(new Set(sealed.map((one) => toBase64(one.slice(1, 13)))).size).toBe(500);
	});
});
