// What the status says when an encrypted database cannot be read or written: the passphrase is
// needed, was changed elsewhere, or is wrong; or the database cannot be encrypted where it is.
// Nothing is read or sent until the user acts, so none of these retries on its own.
import { SyncError } from './sync-error';

const passphrase = (reason: string) => new SyncError('passphrase', reason, false);

export function needsPassphrase(): SyncError {
	return passphrase('This database is encrypted: enter its Sync passphrase and press Start sync. Nothing is read or sent until then.');
}

export function passphraseChanged(): SyncError {
	return passphrase('The sync passphrase was changed on another device: enter the new Sync passphrase and press Start sync. Nothing is read or sent until then.');
}

export function wrongPassphrase(): SyncError {
	return passphrase('That Sync passphrase does not open this database: nothing was read or sent. Type it again and press Start sync.');
}

export function unencryptedDatabase(): SyncError {
	return passphrase(
		'This database already holds sessions that are not encrypted, and the server would keep their old copies readable. To encrypt, move to a new database: enter the address of a new, empty one in Sync server with your Sync passphrase and press Start sync (this device sends every session there, encrypted), then delete this one on the server. Or clear Sync passphrase to go on without encryption.'
	);
}

export function keyRecordMissing(): SyncError {
	return passphrase('This database is encrypted, but its key record on the server is missing or damaged: start sync on a device that has the passphrase (it writes the record again), then here.');
}
