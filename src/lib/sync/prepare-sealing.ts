// Before each pass, before anything is read or sent: which key the database is sealed with, if
// any, and whether this device holds it. A passphrase typed in Settings makes the key of a new
// database (its key record written to the server) or opens an encrypted one's (checked against its
// key record first, so a wrong passphrase reads nothing); the key is then kept on this device and
// the passphrase forgotten. A passphrase change makes a new key, tells other devices through the
// key record, and seals every document again. A key record the server lost or damaged is written
// again by a device that holds the key.
import type { Keyring, KeyStore } from './keyring';
import { resealDocuments } from './reseal-documents';
import type { SealedClient, ServerKeyRecord } from './sealed-client';
import { keyRecordMissing, needsPassphrase, passphraseChanged, unencryptedDatabase, wrongPassphrase } from './sealing-errors';
import { SyncError } from './sync-error';
import { checkOf, deriveKey, makeKey, passesCheck, type KeyRecord } from './sync-key';

/** How long the key before a passphrase change still opens documents (devices that had not heard of it may still write with it). */
export const KEEP_PREVIOUS_KEY_MS = 15 * 60_000;

export interface SealingOptions {
	client: SealedClient;
	keys: KeyStore;
	/** Typed in Settings for this run, never stored: forgotten once it made or opened the key. */
	passphrase?: string | null;
	/** A new passphrase to change to, forgotten once its key is made. */
	change?: string | null;
	now?: () => number;
	/** How far re-encrypting the documents after a passphrase change has come. */
	onProgress?: (done: number, total: number) => void;
}

export class SealingSetup {
	readonly #client: SealedClient;
	readonly #keys: KeyStore;
	readonly #now: () => number;
	readonly #onProgress: SealingOptions['onProgress'];
	#passphrase: string | null;
	#change: string | null;

	constructor(options: SealingOptions) {
		this.#client = options.client;
		this.#keys = options.keys;
		this.#now = options.now ?? Date.now;
		this.#onProgress = options.onProgress;
		this.#passphrase = options.passphrase || null;
		this.#change = options.change || null;
	}

	/** Sets the client's keys for this pass, or throws what the user must do first. */
	async prepare(signal?: AbortSignal): Promise<void> {
		const client = this.#client;
		// A write that met another (two devices setting up at once) reads the record again.
		for (let attempt = 0; attempt < 3; attempt++) {
			const stored = await this.#keys.read();
			let keyring = stored?.url === client.url ? stored : null;
			let server = await client.readKeyRecord(signal);
			if (keyring?.change?.announce) {
				const announced = await this.#announce(keyring, server, signal);
				if (announced) [keyring, server] = announced;
			}
			if (!server) {
				if (!(await this.#noRecord(keyring, signal))) continue;
				return;
			}
			if (keyring && (!server.record || server.record.kid === keyring.current.kid)) {
				if (!(await this.#own(keyring, server, signal))) continue;
				return;
			}
			if (!server.record) throw keyRecordMissing();
			await this.#adopt(keyring, server.record);
			return;
		}
		throw new SyncError('server', 'Another device was setting up this database’s encryption at the same time. Will retry.', true);
	}

	/** No key record on the server: a plain database, a new one to encrypt, or one whose record was lost. False: try again. */
	async #noRecord(keyring: Keyring | null, signal?: AbortSignal): Promise<boolean> {
		const client = this.#client;
		if (!keyring && !this.#passphrase) {
			client.keyring = null;
			return true;
		}
		const state = await client.databaseState(signal);
		if (state === 'plain') throw unencryptedDatabase();
		if (keyring) return this.#own(keyring, null, signal);
		if (state === 'sealed') throw keyRecordMissing();
		const { key, record } = await makeKey(this.#passphrase!);
		if ((await client.writeKeyRecord(record, null, signal)) === null) return false;
		this.#passphrase = null;
		await this.#use({ url: client.url, current: { ...key, salt: record.salt, iterations: record.iterations } });
		return true;
	}

	/** The server's record names this device's key (or is gone or damaged: written again). False: try again. */
	async #own(keyring: Keyring, server: ServerKeyRecord | null, signal?: AbortSignal): Promise<boolean> {
		const client = this.#client;
		this.#passphrase = null;
		const record = server?.record;
		const { current } = keyring;
		if (!record || record.salt !== current.salt || record.iterations !== current.iterations || !(await passesCheck(current.key, record))) {
			const mine: KeyRecord = { kid: current.kid, salt: current.salt, iterations: current.iterations, check: await checkOf(current) };
			if ((await client.writeKeyRecord(mine, server?.rev ?? null, signal)) === null) return false;
		}
		client.keyring = keyring;
		if (this.#change) {
			await this.#changeKey(keyring, signal);
			return true;
		}
		await this.#reseal(keyring, signal);
		return true;
	}

	/** The server's key is not this device's: the typed passphrase opens it (its check passes), or the user is asked. */
	async #adopt(keyring: Keyring | null, record: KeyRecord): Promise<void> {
		const passphrase = this.#passphrase;
		this.#client.keyring = null;
		if (!passphrase) throw keyring ? passphraseChanged() : needsPassphrase();
		this.#passphrase = null;
		const key = await deriveKey(passphrase, record.salt, record.iterations);
		if (!(await passesCheck(key, record))) throw wrongPassphrase();
		// The key it replaces still opens what devices wrote before they heard of the change, for a while.
		const previous = keyring ? { previous: { kid: keyring.current.kid, key: keyring.current.key, until: this.#now() + KEEP_PREVIOUS_KEY_MS } } : {};
		await this.#use({ url: this.#client.url, current: { kid: record.kid, key, salt: record.salt, iterations: record.iterations }, ...previous });
	}

	/** A new key from the new passphrase: kept here first, then announced in the key record, then every document sealed with it. */
	async #changeKey(keyring: Keyring, signal?: AbortSignal): Promise<void> {
		const passphrase = this.#change!;
		this.#change = null;
		const { key, record } = await makeKey(passphrase);
		const next: Keyring = {
			url: keyring.url,
			current: { ...key, salt: record.salt, iterations: record.iterations },
			previous: { kid: keyring.current.kid, key: keyring.current.key, until: this.#now() + KEEP_PREVIOUS_KEY_MS },
			change: { announce: true, since: '0' }
		};
		await this.#use(next);
		const announced = await this.#announce(next, await this.#client.readKeyRecord(signal), signal);
		if (announced) await this.#reseal(announced[0], signal);
	}

	/** Writes the key record of a change made here over the one it replaces (or a lost one); null when another device changed it meanwhile. */
	async #announce(keyring: Keyring, server: ServerKeyRecord | null, signal?: AbortSignal): Promise<[Keyring, ServerKeyRecord] | null> {
		const { current, previous } = keyring;
		const kid = server?.record?.kid;
		if (kid !== undefined && kid !== current.kid && kid !== previous?.kid) return null;
		let written = server;
		if (!written || kid !== current.kid) {
			const record: KeyRecord = { kid: current.kid, salt: current.salt, iterations: current.iterations, check: await checkOf(current) };
			const rev = await this.#client.writeKeyRecord(record, server?.rev ?? null, signal);
			if (rev === null) return null;
			written = { rev, record };
		}
		const next: Keyring = { ...keyring, change: { announce: false, since: keyring.change?.since ?? '0' } };
		await this.#use(next);
		return [next, written];
	}

	/** After a change made here: the documents still sealed with the previous key are sealed again; the previous key goes once none can arrive. */
	async #reseal(keyring: Keyring, signal?: AbortSignal): Promise<void> {
		if (keyring.change && !keyring.change.announce) {
			const total = keyring.change.since === '0' ? ((await this.#client.documentCount(signal)) ?? 0) : 0;
			let held = keyring;
			const since = await resealDocuments(this.#client, keyring, {
				since: keyring.change.since,
				signal,
				onPage: async (since, done) => {
					held = { ...held, change: { announce: false, since } };
					await this.#use(held);
					if (total) this.#onProgress?.(Math.min(done, total), total);
				}
			});
			keyring = { ...held, change: { announce: false, since } };
		}
		if (keyring.previous && this.#now() >= keyring.previous.until) {
			const { previous: _p, change: _c, ...rest } = keyring;
			keyring = rest;
		}
		await this.#use(keyring);
	}

	async #use(keyring: Keyring): Promise<void> {
		await this.#keys.write(keyring);
		this.#client.keyring = keyring;
	}
}
