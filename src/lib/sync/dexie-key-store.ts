// Where the keys of an encrypted database live on this device: a row of the profile's sync tables
// (never synced, never exported), holding non-extractable CryptoKey objects.
import type { PalimpsestDb } from '../db/database';
import type { Keyring, KeyStore } from './keyring';

const KEYRING = 'keyring';

export function createKeyStore(db: PalimpsestDb): KeyStore {
	return {
		async read() {
			const value = (await db.sync_meta.get(KEYRING))?.value as Keyring | undefined;
			return value && typeof value.url === 'string' && value.current?.key instanceof CryptoKey ? value : null;
		},
		async write(keyring) {
			await db.sync_meta.put({ key: KEYRING, value: keyring });
		}
	};
}
