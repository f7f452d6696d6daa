// A synced document as the server holds it once encrypted: AES-GCM under the database's 256-bit
// key, a fresh random 96-bit IV for every encryption, and the document's id and the key's id as
// associated data, so the server can neither read a body nor move it to another document. An
// attachment's bytes are sealed alike, bound to their document and name.
import { fromBase64, toBase64 } from './base64';

export const ENVELOPE_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes sealing adds to an attachment: its version, its IV and its tag. */
export const SEALED_BYTES_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;
/** A key id: 16 random bytes in base64url. */
const KEY_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** A sealed body: the envelope version, the key's id, the IV and the ciphertext (its tag at the end), in base64. */
export interface Sealed {
	v: typeof ENVELOPE_VERSION;
	kid: string;
	iv: string;
	ct: string;
}

/** A key that seals and opens, with the id the envelopes name it by. */
export interface DocumentKey {
	kid: string;
	key: CryptoKey;
}

/** Opening failed: the ciphertext, its IV or what it is bound to is not what was sealed. */
export class Unauthentic extends Error {
	constructor() {
		super('it fails to authenticate');
		this.name = 'Unauthentic';
	}
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** What a body is bound to: its document and key (ids hold no line breaks). */
const bodyData = (kid: string, id: string) => encoder.encode(`doc\n${kid}\n${id}`);
/** What an attachment is bound to: its document, its name and the key. */
const attachmentData = (kid: string, id: string, name: string) => encoder.encode(`att\n${kid}\n${id}\n${name}`);

export function isKeyId(value: unknown): value is string {
	return typeof value === 'string' && KEY_ID.test(value);
}

/** A new random key id. */
export function newKeyId(): string {
	return toBase64(crypto.getRandomValues(new Uint8Array(16))).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

async function encrypt(key: CryptoKey, data: Uint8Array<ArrayBuffer>, plain: Uint8Array<ArrayBuffer>): Promise<{ iv: Uint8Array<ArrayBuffer>; ct: Uint8Array<ArrayBuffer> }> {
	// Never reused: each encryption draws its own IV.
	const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
	const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: data, tagLength: TAG_BYTES * 8 }, key, plain));
	return { iv, ct };
}

async function decrypt(key: CryptoKey, data: Uint8Array<ArrayBuffer>, iv: Uint8Array<ArrayBuffer>, ct: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
	try {
		return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: data, tagLength: TAG_BYTES * 8 }, key, ct));
	} catch {
		throw new Unauthentic();
	}
}

/** `value` as JSON, sealed for document `id`. */
export async function sealJson(key: DocumentKey, id: string, value: unknown): Promise<Sealed> {
	const { iv, ct } = await encrypt(key.key, bodyData(key.kid, id), encoder.encode(JSON.stringify(value)));
	return { v: ENVELOPE_VERSION, kid: key.kid, iv: toBase64(iv), ct: toBase64(ct) };
}

/** What `sealed` holds, if it was sealed with `key` for document `id`; else throws Unauthentic. */
export async function openJson(key: DocumentKey, id: string, sealed: Sealed): Promise<unknown> {
	const iv = fromBase64(sealed.iv);
	const ct = fromBase64(sealed.ct);
	if (sealed.kid !== key.kid || !iv || iv.length !== IV_BYTES || !ct || ct.length < TAG_BYTES) throw new Unauthentic();
	const plain = await decrypt(key.key, bodyData(key.kid, id), iv, ct);
	try {
		return JSON.parse(decoder.decode(plain));
	} catch {
		// Authentic but not JSON: only a device of this key wrote it, and none writes that.
		throw new Unauthentic();
	}
}

/** The bytes of attachment `name` of document `id`, sealed: its version, its IV, then the ciphertext. */
export async function sealBytes(key: DocumentKey, id: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
	const { iv, ct } = await encrypt(key.key, attachmentData(key.kid, id, name), bytes);
	const sealed = new Uint8Array(1 + IV_BYTES + ct.length);
	sealed[0] = ENVELOPE_VERSION;
	sealed.set(iv, 1);
	sealed.set(ct, 1 + IV_BYTES);
	return sealed;
}

/** The bytes `sealed` holds, if sealed with `key` for attachment `name` of document `id`; else throws Unauthentic. */
export async function openBytes(key: DocumentKey, id: string, name: string, sealed: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
	if (sealed.length < SEALED_BYTES_OVERHEAD || sealed[0] !== ENVELOPE_VERSION) throw new Unauthentic();
	return decrypt(key.key, attachmentData(key.kid, id, name), sealed.slice(1, 1 + IV_BYTES), sealed.slice(1 + IV_BYTES));
}

/** A sealed body as the server sent it (hostile input), or null when it is not one. */
export function readSealed(value: unknown): Sealed | null {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	const { v, kid, iv, ct, ...rest } = value as Record<string, unknown>;
	if (Object.keys(rest).length || v !== ENVELOPE_VERSION || !isKeyId(kid) || typeof iv !== 'string' || typeof ct !== 'string') return null;
	return { v, kid, iv, ct };
}
