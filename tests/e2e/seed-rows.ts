// Sessions and messages written straight into a profile's IndexedDB, in one transaction, as a
// long-used profile holds them: thousands of sessions or hundreds of answers through the chat
// would take minutes. Rows are described briefly here and given every stored field in the page.
import type { Page } from '@playwright/test';

export interface SeedSession {
	id: string;
	title: string;
	/** Created and last active (ms since the epoch); now by default. */
	at?: number;
	/** How many messages it holds (seq 0 … messages - 1, written with `writeRows`'s messages). */
	messages: number;
	archived?: boolean;
}

/** A message of a seeded session: even seqs are the user's, odd ones the assistant's. */
export interface SeedMessage {
	session: string;
	seq: number;
	content: string;
	/** Stored fields to set beyond the defaults (a compacted row, a summary and its marker). */
	fields?: Record<string, unknown>;
}

/** Writes `sessions` and `messages` into profile `profile`'s database in one transaction. */
export async function writeRows(page: Page, sessions: SeedSession[], messages: SeedMessage[], profile = 'default'): Promise<void> {
	await page.evaluate(
		async ({ sessions, messages, profile }) => {
			const open = indexedDB.open(`palimpsest-${profile}`);
			const db = await new Promise<IDBDatabase>((resolve, reject) => {
				open.onsuccess = () => resolve(open.result);
				open.onerror = () => reject(open.error);
			});
			const tx = db.transaction(['sessions', 'messages'], 'readwrite');
			const now = Date.now();
			for (const { id, title, at = now, messages: count, archived } of sessions) {
				tx.objectStore('sessions').put({
					id, profile, title, title_source: 'user', session_key: `web:${profile}:${id}`, created_at: at, last_activity_at: at,
					ended_at: null, end_reason: null, parent_session_id: null, parent_kind: null, archived: archived ? 1 : 0, pinned: 0,
					provider: 'offline', model: 'offline-mini', message_count: count, token_estimate: 0, next_seq: count,
					compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }
				});
			}
			for (const { session, seq, content, fields } of messages) {
				tx.objectStore('messages').put({
					session_id: session, seq, id: `${session}-${seq}`, role: seq % 2 ? 'assistant' : 'user', content,
					status: 'complete', kind: 'message', active: 1, compacted_by: null, created_at: now, ...fields
				});
			}
			await new Promise((resolve, reject) => {
				tx.oncomplete = resolve;
				tx.onerror = () => reject(tx.error);
			});
			db.close();
		},
		{ sessions, messages, profile }
	);
}

/** Writes whole rows into stores of profile `profile`'s database (saved prompts, assistants), by store name, in one transaction. */
export async function writeStoreRows(page: Page, stores: Record<string, object[]>, profile = 'default'): Promise<void> {
	await page.evaluate(
		async ({ stores, profile }) => {
			const open = indexedDB.open(`palimpsest-${profile}`);
			const db = await new Promise<IDBDatabase>((resolve, reject) => {
				open.onsuccess = () => resolve(open.result);
				open.onerror = () => reject(open.error);
			});
			const tx = db.transaction(Object.keys(stores), 'readwrite');
			for (const [store, rows] of Object.entries(stores)) for (const row of rows) tx.objectStore(store).put(row);
			await new Promise((resolve, reject) => {
				tx.oncomplete = resolve;
				tx.onerror = () => reject(tx.error);
			});
			db.close();
		},
		{ stores, profile }
	);
}
