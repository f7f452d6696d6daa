// The one rule for `ctx.storage` keys, shared by the stored and the in-memory store.
import { MAX_KEY_CHARS } from './plugin-budgets';

export function checkStorageKey(key: unknown): string {
	if (typeof key !== 'string' || !key) throw new TypeError('Storage keys are non-empty strings.');
	if (key.length > MAX_KEY_CHARS) throw new RangeError(`Storage keys are at most ${MAX_KEY_CHARS} characters; this one has ${key.length}.`);
	return key;
}

export function closedStorageError(pluginId: string): Error {
	return new Error(`Plugin "${pluginId}" is unloaded; its storage is closed.`);
}
