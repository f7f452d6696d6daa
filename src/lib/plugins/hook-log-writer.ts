// Persists hook calls to the bounded hook log in small batches, so a busy hook never turns
// into one transaction per callback; once the plugin broker runs, it writes them, off the
// page's thread. Each call's details (payload, returned value, stack) stay in this tab's
// memory only, for the newest calls: the stored row keeps its short lines.
import type { PalimpsestDb } from '../db/database';
import { appendHookLog, HOOK_LOG_LIMIT } from '../db/plugin-verbs';
import type { HookLogRow } from '../db/schema';
import type { HookCallDetail, HookLogEntry } from '../hooks/run-hook';

const BATCH_MS = 150;
/** How many calls' details this tab keeps. */
export const DETAIL_LIMIT = 300;

/** `writer`: who writes a batch instead of the page, when someone does (the plugin broker, once it runs). */
export function createHookLogWriter(db: PalimpsestDb, writer: () => ((rows: HookLogRow[]) => Promise<void>) | null = () => null) {
	let pending: HookLogEntry[] = [];
	let timer: ReturnType<typeof setTimeout> | null = null;
	// Insertion order is age: the oldest detail is dropped first.
	const details = new Map<string, HookCallDetail>();

	/** `leaving`: the tab is going; the page writes the batch itself (a worker may end before it reads it). */
	async function flush(leaving = false): Promise<void> {
		if (timer) clearTimeout(timer);
		timer = null;
		const batch = pending;
		pending = [];
		if (!batch.length) return;
		try {
			const rows = batch.map(({ id: _id, detail: _detail, ...entry }) => entry);
			const write = leaving ? null : writer();
			await (write ? write(rows) : appendHookLog(db, rows));
		} catch (error) {
			console.warn('[hooks] could not save the hook log', error);
		}
	}

	return {
		record(entry: HookLogEntry): void {
			if (entry.call_id && entry.detail) {
				details.set(entry.call_id, entry.detail);
				if (details.size > DETAIL_LIMIT) details.delete(details.keys().next().value!);
			}
			pending.push(entry);
			// The stored log keeps only its newest HOOK_LOG_LIMIT rows: a burst never holds more in memory.
			if (pending.length > HOOK_LOG_LIMIT) pending.splice(0, pending.length - HOOK_LOG_LIMIT);
			timer ??= setTimeout(() => void flush(), BATCH_MS);
		},
		/** The details of a call made in this tab, while it is among the newest DETAIL_LIMIT. */
		detail(callId: string): HookCallDetail | undefined {
			return details.get(callId);
		},
		flush
	};
}

export type HookLogWriter = ReturnType<typeof createHookLogWriter>;
