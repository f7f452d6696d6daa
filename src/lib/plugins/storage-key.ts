// The one rule for `ctx.storage` keys, shared by the stored and the in-memory store.

export function checkStorageKey(key: unknown): string {
	if (typeof key !== 'string' || !key) throw new TypeError('Storage keys are non-empty strings.');
	return key;
}

export function closedStorageError(pluginId: string): Error {
	return new Error(`Plugin "${pluginId}" is unloaded; its storage is closed.`);
}
