// The database's key: derived on the device from the sync passphrase with PBKDF2-SHA-256 (a random
// salt kept on the server, at least 600,000 iterations) into a non-extractable AES-GCM key, and
// the key record the server holds under the id `sync-key`: the salt, the iterations, a random key
// id and a check sealed with the key, which tells a wrong passphrase apart without reading any
// other document. The passphrase itself is never stored or sent.
import { fromBase64, toBase64 } from './base64';
import { isKeyId, newKeyId, openJson, readSealed, sealJson, Unauthentic, type DocumentKey, type Sealed } from './seal-envelope';

export const KEY_DOC_ID = 'sync-key';
/** OWASP's figure for PBKDF2-SHA-256 (2023); a key record asking for fewer is refused. */
export const KEY_ITERATIONS = 600_000;
/** More than this and a server could keep a device deriving for minutes. */
const MAX_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const KDF = 'PBKDF2-SHA-256';
const CHECK = 'Palimpsest sync key check';

/** The key record: how the key is derived from the passphrase, its id, and the check. */
export interface KeyRecord {
	kid: string;
	/** base64 */
	salt: string;
	iterations: number;
	check: Sealed;
}

/** The passphrase's key: the same passphrase typed on any keyboard (NFC) gives the same key. */
export async function deriveKey(passphrase: string, salt: string, iterations: number): Promise<CryptoKey> {
	const bytes = fromBase64(salt);
	if (!bytes) throw new Error('The salt is not base64.');
	const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
	// Not extractable: no script, this app's included, can read the key's bytes.
	return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: bytes, iterations }, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** The check for `key`: a known text sealed with it for the key record. */
export function checkOf(key: DocumentKey): Promise<Sealed> {
	return sealJson(key, KEY_DOC_ID, CHECK);
}

/** A new key for a database: a random salt and key id, and the key record to store on the server. */
export async function makeKey(passphrase: string): Promise<{ key: DocumentKey; record: KeyRecord }> {
	const salt = toBase64(crypto.getRandomValues(new Uint8Array(SALT_BYTES)));
	const key = { kid: newKeyId(), key: await deriveKey(passphrase, salt, KEY_ITERATIONS) };
	return { key, record: { kid: key.kid, salt, iterations: KEY_ITERATIONS, check: await checkOf(key) } };
}

/** Whether `key` is the key of `record` (its check opens); false for a wrong passphrase. */
export async function passesCheck(key: CryptoKey, record: KeyRecord): Promise<boolean> {
	try {
		return (await openJson({ kid: record.kid, key }, KEY_DOC_ID, record.check)) === CHECK;
	} catch (error) {
		if (error instanceof Unauthentic) return false;
		throw error;
	}
}

/** The key record a server sent (hostile input), or null when it is not one this app reads. */
export function readKeyRecord(body: unknown): KeyRecord | null {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
	const { _id, _rev: _r, format, kdf, kid, salt, iterations, check, ...rest } = body as Record<string, unknown>;
	if (_id !== KEY_DOC_ID || format !== 1 || kdf !== KDF || Object.keys(rest).some((key) => key !== '_conflicts')) return null;
	if (!isKeyId(kid) || typeof salt !== 'string' || salt.length > 128) return null;
	const saltBytes = fromBase64(salt);
	if (!saltBytes || saltBytes.length < SALT_BYTES) return null;
	if (typeof iterations !== 'number' || !Number.isInteger(iterations) || iterations < KEY_ITERATIONS || iterations > MAX_ITERATIONS) return null;
	const sealed = readSealed(check);
	if (!sealed || sealed.kid !== kid || sealed.ct.length > 1_000) return null;
	return { kid, salt, iterations, check: sealed };
}

/** The key record's body as the server stores it (`rev`: the revision it replaces). */
export function keyRecordBody(record: KeyRecord, rev: string | null): Record<string, unknown> {
	return { _id: KEY_DOC_ID, ...(rev ? { _rev: rev } : {}), format: 1, kdf: KDF, kid: record.kid, salt: record.salt, iterations: record.iterations, check: record.check };
}
