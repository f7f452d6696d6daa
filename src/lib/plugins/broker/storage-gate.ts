// The budgets of a plugin's storage calls, where they arrive: bytes read and written a second
// (every byte, overwrites included), refused past the burst; writes and deletes a second,
// made to wait their turn past the burst. Each write commits a transaction that every other
// context of the app hears of, so their rate is bounded as well as their size.
import { measurePlainData } from '../../hooks/plain-data';
import { formatBytes } from '../../hooks/plain-data';
import {
	RateBudget,
	STORAGE_BYTES_BURST,
	STORAGE_BYTES_PER_SECOND,
	STORAGE_WRITES_BURST,
	STORAGE_WRITES_PER_SECOND
} from '../plugin-budgets';
import type { PluginStorage } from '../plugin-storage';
import type { StorageOp } from '../sandbox/wire-protocol';

export interface StorageCall {
	op: StorageOp;
	key: unknown;
	value?: unknown;
	/** The value's size when already measured (its message's, as it was read). */
	bytes?: number;
}

export function storageRateMessage(pluginId: string): string {
	return (
		`Plugin "${pluginId}" read and wrote more than ${formatBytes(STORAGE_BYTES_PER_SECOND)} a second of its storage, ` +
		'so this call was refused. Keep fewer or smaller values, or spread large reads and writes out over time.'
	);
}

export class StorageGate {
	readonly #bytes: RateBudget;
	readonly #writes: RateBudget;
	readonly #pluginId: string;
	readonly #onRefused: () => void;
	readonly #sleep: (ms: number) => Promise<void>;

	constructor(pluginId: string, onRefused: () => void, now: () => number = () => Date.now(), sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))) {
		this.#pluginId = pluginId;
		this.#onRefused = onRefused;
		this.#bytes = new RateBudget(STORAGE_BYTES_PER_SECOND, STORAGE_BYTES_BURST, now);
		this.#writes = new RateBudget(STORAGE_WRITES_PER_SECOND, STORAGE_WRITES_BURST, now);
		this.#sleep = sleep;
	}

	/** Serves one call with `storage` once its budgets allow; rejects with the refusal when they do not. */
	async serve(storage: PluginStorage, call: StorageCall): Promise<unknown> {
		const key = call.key as string;
		if (call.op === 'set') {
			// The value was measured when its message was read; its size is what the write costs.
			this.#spend(call.bytes ?? measurePlainData(call.value));
			await this.#turn();
			return storage.set(key, call.value);
		}
		if (call.op === 'delete') {
			this.#spend(0);
			await this.#turn();
			return storage.delete(key);
		}
		this.#spend(0);
		const value = call.op === 'get' ? await storage.get(key) : await storage.keys(key as string | undefined);
		// What was read is only known once read: it is paid for by the calls after it.
		this.#bytes.charge(measurePlainData(value));
		return value;
	}

	#spend(bytes: number): void {
		// Even an empty call takes a byte: a plugin over its budget has every call refused.
		if (this.#bytes.take(Math.max(1, bytes))) return;
		this.#onRefused();
		throw new RangeError(storageRateMessage(this.#pluginId));
	}

	async #turn(): Promise<void> {
		for (let wait = this.#writes.waitMs(); wait > 0; wait = this.#writes.waitMs()) await this.#sleep(wait);
		this.#writes.take();
	}
}
