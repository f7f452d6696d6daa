// The key from the passphrase and the key record: a slow derivation into a key no script can read,
// a check that tells a wrong passphrase apart from a damaged document, and a record from the
// server read as hostile input (a weakened derivation is refused).
import { beforeAll, describe, expect, it } from 'vitest';
import { openJson, sealJson, Unauthentic, type DocumentKey } from './seal-envelope';
import { deriveKey, KEY_DOC_ID, keyRecordBody, makeKey, passesCheck, readKeyRecord, type KeyRecord } from './sync-key';

let made: { key: DocumentKey; record: KeyRecord };

beforeAll(async () => {
	made = await makeKey('correct horse battery staple');
}, 30_000);

describe('the key from a passphrase', () => {
	it('is derived with at least 600,000 iterations of PBKDF2 and a random salt, and cannot be read', async () => {
		expect(made.record.iterations).toBeGreaterThanOrEqual(600_000);
		expect(made.key.key.extractable).toBe(false);
		expect(made.key.key.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
		await expect(crypto.subtle.exportKey('raw', made.key.key)).rejects.toThrow();
		const body = keyRecordBody(made.record, null);
		expect(JSON.stringify(body)).not.toContain('horse');
		expect(readKeyRecord(body)).toEqual(made.record);
	});

	it('is the same key on another device that types the same passphrase (however its keyboard composes it)', async () => {
		const again = await makeKey('caf\u00e9');
		const typed = await deriveKey('cafe\u0301', again.record.salt, again.record.iterations);
		expect(await passesCheck(typed, again.record)).toBe(true);
		const sealed = await sealJson(again.key, 'session:s-1', { title: 'x' });
		expect(await openJson({ kid: again.record.kid, key: typed }, 'session:s-1', sealed)).toEqual({ title: 'x' });
	}, 30_000);

	it('tells a wrong passphrase (its check fails) apart from a damaged document (the check passes, the document does not open)', async () => {
		const wrong = await deriveKey('correct horse battery stapler', made.record.salt, made.record.iterations);
		expect(await passesCheck(wrong, made.record)).toBe(false);

		const right = await deriveKey('correct horse battery staple', made.record.salt, made.record.iterations);
		expect(await passesCheck(right, made.record)).toBe(true);
		const sealed = await sealJson(made.key, 'session:s-1', { title: 'x' });
		const damaged = { ...sealed, ct: `${sealed.ct.slice(0, 4)}${sealed.ct[4] === 'A' ? 'B' : 'A'}${sealed.ct.slice(5)}` };
		await expect(openJson({ kid: made.record.kid, key: right }, 'session:s-1', damaged)).rejects.toBeInstanceOf(Unauthentic);
	}, 30_000);
});

describe('a key record from the server', () => {
	it('is refused when it weakens the derivation, asks for endless work, or does not fit', () => {
		const body = keyRecordBody(made.record, '1-abc');
		expect(readKeyRecord(body)).toEqual(made.record);
		for (const bad of [
			{ ...body, iterations: 100_000 },
			{ ...body, iterations: 1e12 },
			{ ...body, iterations: 600_000.5 },
			{ ...body, salt: 'AAAA' },
			{ ...body, salt: 'not base64!' },
			{ ...body, kdf: 'PBKDF2-SHA-1' },
			{ ...body, format: 2 },
			{ ...body, extra: true },
			{ ...body, _id: 'session:x' },
			{ ...body, check: { ...made.record.check, kid: 'another-key-id-xxxxxx' } },
			{ ...body, kid: 'x' }
		])
			expect(readKeyRecord(bad)).toBeNull();
		expect(KEY_DOC_ID).toBe('sync-key');
	});
});
