// The keys this device holds for an encrypted database, as kept in its sync tables: CryptoKey
// objects that cannot be exported (IndexedDB stores them as they are), so a reload does not ask
// for the passphrase again and no script can read the keys' bytes.
import type { DocumentKey } from './seal-envelope';

/** The database's key, with how it was derived (to write its key record again, should the server lose it). */
export interface StoredKey extends DocumentKey {
	salt: string;
	iterations: number;
}

export interface Keyring {
	/** The database the keys belong to: another address starts without them. */
	url: string;
	current: StoredKey;
	/** The key before a passphrase change: it still opens documents until `until` (or while this device re-encrypts them). */
	previous?: DocumentKey & { until: number };
	/** A passphrase change made on this device: its key record not yet written (`announce`), its documents re-encrypted up to the changes feed's `since`. */
	change?: { announce: boolean; since: string };
}

export interface KeyStore {
	read(): Promise<Keyring | null>;
	write(keyring: Keyring): Promise<void>;
}

/** A key store in memory, for a run that has no profile database behind it. */
export function memoryKeyStore(): KeyStore {
	let held: Keyring | null = null;
	return {
		read: async () => held,
		write: async (keyring) => {
			held = keyring;
		}
	};
}
