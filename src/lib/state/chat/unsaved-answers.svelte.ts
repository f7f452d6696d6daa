// Answers that storage refused to keep at all (a full disk, a closed database): their text lives
// on in this tab, shown in place of the stored row with a Copy button, and is written as soon as
// storage takes it again, marked failed with the reason. Closing the tab before then loses it;
// the row says so.
import { SvelteMap } from 'svelte/reactivity';
import { storageFailureMessage } from '../../agent/storage-failure';
import type { PalimpsestDb } from '../../db/database';
import { updateMessage } from '../../db/message-verbs';
import type { MessageRow } from '../../db/schema';

export interface UnsavedAnswer {
	key: [string, number];
	text: string;
	/** What the row shows meanwhile. */
	error: string;
	/** Why storage refused, for the message stored once it accepts. */
	cause: unknown;
}

const id = (key: readonly [string, number]) => `${key[0]}:${key[1]}`;

export class UnsavedAnswers {
	entries = new SvelteMap<string, UnsavedAnswer>();
	#db: PalimpsestDb;
	#retryMs: number;
	/** Pending retries, by answer. Not shown, so not reactive. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity
	#timers = new Map<string, ReturnType<typeof setTimeout>>();

	constructor(db: PalimpsestDb, retryMs = 2000) {
		this.#db = db;
		this.#retryMs = retryMs;
	}

	keep(answer: UnsavedAnswer): void {
		this.entries.set(id(answer.key), answer);
		this.#schedule(id(answer.key));
	}

	has(row: Pick<MessageRow, 'session_id' | 'seq'>): boolean {
		return this.entries.has(id([row.session_id, row.seq]));
	}

	/** Whether this tab keeps an unsaved answer of the session (it stores it itself). */
	hasSession(sessionId: string): boolean {
		for (const entry of this.entries.values()) if (entry.key[0] === sessionId) return true;
		return false;
	}

	/** The rows as they will be once saved: an unsaved answer's text, failed, with its reason. */
	overlay(rows: MessageRow[]): MessageRow[] {
		if (this.entries.size === 0) return rows;
		return rows.map((row) => {
			const entry = this.entries.get(id([row.session_id, row.seq]));
			return entry ? { ...row, content: entry.text, status: 'error', error: entry.error } : row;
		});
	}

	/** Tries to store every unsaved answer now (e.g. after the user freed some space). */
	flush(): void {
		for (const key of this.entries.keys()) void this.#save(key);
	}

	stop(): void {
		for (const timer of this.#timers.values()) clearTimeout(timer);
		this.#timers.clear();
	}

	#schedule(key: string): void {
		clearTimeout(this.#timers.get(key));
		this.#timers.set(key, setTimeout(() => void this.#save(key), this.#retryMs));
	}

	async #save(key: string): Promise<void> {
		const entry = this.entries.get(key);
		if (!entry) return;
		clearTimeout(this.#timers.get(key));
		try {
			// False when the row is gone (Retry replaced it, the session was deleted): nothing to keep.
			await updateMessage(this.#db, entry.key, { content: entry.text, status: 'error', error: storageFailureMessage(entry.cause, true) });
			if (this.entries.get(key) === entry) this.entries.delete(key);
			this.#timers.delete(key);
		} catch {
			if (this.entries.get(key) === entry) this.#schedule(key);
		}
	}
}
