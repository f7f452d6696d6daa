// The plugin broker of one tab's plugin host: started with the first isolated plugin (so a
// profile without plugins starts no worker), shared by all of them, and ended with the host.
import type { Remote } from 'comlink';
import type { BrokerApi } from './broker-protocol';
import type { BrokerHandle } from './broker-client';

export class BrokerSlot {
	#handle: Promise<BrokerHandle> | null = null;
	#ready: Remote<BrokerApi> | null = null;
	readonly #start: () => Promise<BrokerHandle>;

	constructor(start: () => Promise<BrokerHandle>) {
		this.#start = start;
	}

	/** The broker, started now if it is not yet; a start that failed is tried again next time. */
	get(): Promise<Remote<BrokerApi>> {
		if (!this.#handle) {
			const handle = this.#start();
			this.#handle = handle;
			handle.then(
				(started) => {
					if (this.#handle === handle) this.#ready = started.broker;
				},
				() => {
					if (this.#handle === handle) this.#handle = null;
				}
			);
		}
		return this.#handle.then((started) => started.broker);
	}

	/** The broker if it is running, else null (nothing is started for the asking). */
	running(): Remote<BrokerApi> | null {
		return this.#ready;
	}

	close(): void {
		const handle = this.#handle;
		this.#handle = null;
		this.#ready = null;
		void handle?.then((started) => started.close(), () => {});
	}
}
