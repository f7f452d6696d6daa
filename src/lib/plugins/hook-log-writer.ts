// Persists hook calls to the bounded hook log in small batches, so a busy hook never turns
// into one transaction per callback.
import type { PalimpsestDb } from '../db/database';
import { appendHookLog } from '../db/plugin-verbs';
import type { HookLogEntry } from '../hooks/run-hook';

const BATCH_MS = 150;

export function createHookLogWriter(db: PalimpsestDb) {
	let pending: HookLogEntry[] = [];
	let timer: ReturnType<typeof setTimeout> | null = null;

	async function flush(): Promise<void> {
		if (timer) clearTimeout(timer);
		timer = null;
		const batch = pending;
		pending = [];
		if (!batch.length) return;
		try {
			await appendHookLog(db, batch.map(({ id: _id, ...entry }) => entry));
		} catch (error) {
			console.warn('[hooks] could not save the hook log', error);
		}
	}

	return {
		record(entry: HookLogEntry): void {
			pending.push(entry);
			timer ??= setTimeout(flush, BATCH_MS);
		},
		flush
	};
}
