// Whether the browser keeps this site's data under storage pressure. Asked for on the user's
// first message of a visit (a click or Enter: browsers that prompt want a user gesture, and
// by then the user has data worth keeping), never at start-up; Settings shows the answer.

export type PersistenceState = 'checking' | 'unsupported' | 'not-asked' | 'asking' | 'granted' | 'denied';

type StorageLike = Pick<StorageManager, 'persist' | 'persisted'>;

export class StoragePersistence {
	state = $state<PersistenceState>('checking');
	#storage: () => StorageLike | undefined;
	#asked = false;

	/** `storage`: read when used, so a page without navigator (tests) still builds the store. */
	constructor(storage: () => StorageLike | undefined = () => globalThis.navigator?.storage) {
		this.#storage = storage;
	}

	/** Reads the current answer without asking. */
	async check(): Promise<void> {
		const storage = this.#storage();
		if (typeof storage?.persist !== 'function' || typeof storage.persisted !== 'function') {
			this.state = 'unsupported';
			return;
		}
		try {
			const persisted = await storage.persisted();
			if (this.state === 'checking') this.state = persisted ? 'granted' : 'not-asked';
		} catch {
			if (this.state === 'checking') this.state = 'not-asked';
		}
	}

	/**
	 * Asks once per visit, unless the data is already persistent. Call it synchronously from
	 * the event handler of the user's action, so the browser sees the gesture.
	 */
	askOnce(): void {
		if (this.#asked || this.state === 'granted' || this.state === 'unsupported') return;
		void this.ask();
	}

	/** Asks the browser now (the Settings button, itself a gesture). */
	async ask(): Promise<void> {
		const storage = this.#storage();
		if (typeof storage?.persist !== 'function') {
			this.state = 'unsupported';
			return;
		}
		this.#asked = true;
		this.state = 'asking';
		try {
			this.state = (await storage.persist()) ? 'granted' : 'denied';
		} catch {
			this.state = 'denied';
		}
	}
}
