// Operation ids for what the user asks of sessions. The same request repeated while it runs,
// after it failed, or a moment after it succeeded (a double click) gets the same id, so the
// session layer answers it from its receipt instead of acting and announcing again.
import { newOperationId } from '../../sessions/announce-removal';

/** How long a finished request's id is kept for an accidental repeat. */
const REPEAT_GRACE_MS = 3000;

interface Pending {
	opId: string;
	ids: readonly string[];
}

export class OperationIds {
	#pending = new Map<string, Pending>();

	async run<T>(action: string, ids: readonly string[], operation: (opId: string) => Promise<T>): Promise<T> {
		const key = `${action}:${[...ids].sort().join('\u0000')}`;
		const entry = this.#pending.get(key) ?? { opId: newOperationId(), ids };
		this.#pending.set(key, entry);
		// A failure keeps the id: retrying the same request is the same operation.
		const result = await operation(entry.opId);
		setTimeout(() => {
			if (this.#pending.get(key) === entry) this.#pending.delete(key);
		}, REPEAT_GRACE_MS);
		return result;
	}

	/** Drops the ids of requests touching these sessions (e.g. unarchived: archiving again is new). */
	forget(ids: readonly string[]): void {
		const touched = new Set(ids);
		for (const [key, entry] of this.#pending) if (entry.ids.some((id) => touched.has(id))) this.#pending.delete(key);
	}
}
