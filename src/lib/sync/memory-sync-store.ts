// A sync store held in memory: a device in the engine's tests, honouring the same contract the
// Dexie store does (the pulled rows and the checkpoint land together, a late message of a
// deleted session is dropped, local edits stay pending until the server has them).
import { messageDocId, sessionDocId } from './document-ids';
import { mergeSessionDocs } from './merge-session';
import type { MessageDoc } from './message-document';
import { pendingBytes } from './pending-body';
import { sameSession } from './same-session';
import type { SessionDoc } from './session-document';
import type { PendingDoc, PulledDoc, PushResult, SyncStore } from './sync-store';

interface Held<T> {
	value: T;
	/** The server revision merged into `value`, or null when none is known. */
	rev: string | null;
	/** The local edit that last changed `value`. */
	edit: number;
	dirty: boolean;
	/** Refused by the server at `edit`: not offered again until edited. */
	refused: boolean;
}

type Removal = { session_id: string; position: string };

export class MemorySyncStore implements SyncStore {
	private readonly sessions = new Map<string, Held<SessionDoc>>();
	private readonly messageRows = new Map<string, Held<MessageDoc>>();
	private readonly removals = new Map<string, Held<Removal>>();
	private lastCheckpoint: string | null = null;
	private edits = 0;

	// --- This device's own edits (the app's verbs, in the Dexie store) ---

	/** Saves a session as edited here (a document stamped over the previous one with stampSession). */
	writeSession(doc: SessionDoc): void {
		const held = this.sessions.get(doc.session_id);
		this.sessions.set(doc.session_id, this.edited(held, doc));
	}

	/** Appends a message; refused for a deleted session, as the app refuses it. */
	appendMessage(doc: MessageDoc): void {
		if (this.session(doc.session_id)?.deleted_at != null) throw new Error(`Session ${doc.session_id} is deleted.`);
		this.messageRows.set(messageDocId(doc.session_id, doc.position), this.edited(undefined, doc));
	}

	/** Deletes a session: its document keeps `deleted_at`, its messages go (and leave the server too). */
	deleteSession(sessionId: string, at: number): void {
		const held = this.sessions.get(sessionId);
		if (!held) throw new Error(`No session ${sessionId}.`);
		const deletedAt = held.value.deleted_at === null ? at : Math.min(held.value.deleted_at, at);
		this.sessions.set(sessionId, this.edited(held, { ...held.value, deleted_at: deletedAt }));
		this.removeMessagesOf(sessionId);
	}

	session(sessionId: string): SessionDoc | undefined {
		return this.sessions.get(sessionId)?.value;
	}

	sessionIds(): string[] {
		return [...this.sessions.keys()].sort();
	}

	/** A session's messages in display order: by position. */
	messages(sessionId: string): MessageDoc[] {
		return [...this.messageRows.values()]
			.map((held) => held.value)
			.filter((doc) => doc.session_id === sessionId)
			.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
	}

	// --- The sync store ---

	async pending(limitBytes: number): Promise<PendingDoc[]> {
		const all = this.pendingDocs().sort((a, b) => a.edit - b.edit);
		const batch: PendingDoc[] = [];
		let bytes = 0;
		for (const entry of all) {
			bytes += pendingBytes(entry);
			if (batch.length && bytes > limitBytes) break;
			batch.push(entry);
		}
		return batch;
	}

	async pendingCount(): Promise<number> {
		return this.pendingDocs().length;
	}

	async markPushed(results: readonly PushResult[]): Promise<void> {
		for (const result of results) {
			const held = this.find(result.id);
			if (!held) continue;
			const current = held.edit === result.edit;
			if (result.kind === 'refused') {
				if (current) held.refused = true;
				continue;
			}
			if (result.rev !== null) held.rev = result.rev;
			if (result.merged && this.isSession(result.id)) {
				const value = held.value as SessionDoc;
				const merged = mergeSessionDocs(value, result.merged);
				if (!sameSession(merged, value)) Object.assign(held, { value: merged, edit: ++this.edits });
				held.dirty = !sameSession(merged, result.merged);
			} else if (current) held.dirty = false;
			if (!held.dirty && this.removals.get(result.id) === held) this.removals.delete(result.id);
		}
	}

	async applyPulled(docs: readonly PulledDoc[], checkpoint: string): Promise<void> {
		// Sessions first: a message in the same batch as its session's deletion is dropped too.
		const order = { session: 0, 'session-purged': 0, 'message-removed': 1, message: 2 } as const;
		for (const pulled of [...docs].sort((a, b) => order[a.kind] - order[b.kind])) {
			if (pulled.kind === 'session-purged') {
				this.removeMessagesOf(pulled.session_id);
				this.sessions.delete(pulled.session_id);
			} else if (pulled.kind === 'session') this.pullSession(pulled.doc, pulled.rev);
			else if (pulled.kind === 'message-removed') {
				const id = messageDocId(pulled.session_id, pulled.position);
				this.messageRows.delete(id);
				this.removals.delete(id);
			} else this.pullMessage(pulled.doc, pulled.rev);
		}
		this.lastCheckpoint = checkpoint;
	}

	async checkpoint(): Promise<string | null> {
		return this.lastCheckpoint;
	}

	// --- Inside ---

	private edited<T>(held: Held<T> | undefined, value: T): Held<T> {
		return { value, rev: held?.rev ?? null, edit: ++this.edits, dirty: true, refused: false };
	}

	private pullSession(doc: SessionDoc, rev: string): void {
		const held = this.sessions.get(doc.session_id);
		if (!held) {
			this.sessions.set(doc.session_id, { value: doc, rev, edit: ++this.edits, dirty: false, refused: false });
		} else {
			const merged = mergeSessionDocs(held.value, doc);
			if (!sameSession(merged, held.value)) Object.assign(held, { value: merged, edit: ++this.edits, refused: false });
			held.rev = rev;
			held.dirty = !sameSession(merged, doc);
		}
		if (doc.deleted_at !== null) this.removeMessagesOf(doc.session_id);
	}

	private pullMessage(doc: MessageDoc, rev: string): void {
		const id = messageDocId(doc.session_id, doc.position);
		if (this.session(doc.session_id)?.deleted_at != null) {
			// A late append to a deleted session: never shown, and removed from the server.
			this.messageRows.delete(id);
			this.queueRemoval(id, doc, rev);
			return;
		}
		const held = this.messageRows.get(id);
		if (held) Object.assign(held, { rev, dirty: false });
		else this.messageRows.set(id, { value: doc, rev, edit: ++this.edits, dirty: false, refused: false });
	}

	private removeMessagesOf(sessionId: string): void {
		for (const [id, held] of this.messageRows) {
			if (held.value.session_id !== sessionId) continue;
			this.messageRows.delete(id);
			// One never sent is not on the server; one sent or pulled is removed there too.
			if (!held.dirty) this.queueRemoval(id, held.value, held.rev);
		}
	}

	private queueRemoval(id: string, doc: MessageDoc, rev: string | null): void {
		this.removals.set(id, { value: { session_id: doc.session_id, position: doc.position }, rev, edit: ++this.edits, dirty: true, refused: false });
	}

	private isSession(id: string): boolean {
		return id.startsWith('session:');
	}

	private find(id: string): Held<unknown> | undefined {
		if (this.isSession(id)) return this.sessions.get(id.slice('session:'.length));
		return this.removals.get(id) ?? this.messageRows.get(id);
	}

	private pendingDocs(): PendingDoc[] {
		const pending: PendingDoc[] = [];
		const open = <T>(held: Held<T>) => held.dirty && !held.refused;
		for (const held of this.sessions.values()) {
			if (open(held)) pending.push({ kind: 'session', id: sessionDocId(held.value.session_id), edit: held.edit, rev: held.rev, doc: held.value });
		}
		for (const [id, held] of this.messageRows) if (open(held)) pending.push({ kind: 'message', id, edit: held.edit, rev: null, doc: held.value });
		for (const [id, held] of this.removals) if (open(held)) pending.push({ kind: 'message-removed', id, edit: held.edit, rev: held.rev, ...held.value });
		return pending;
	}
}
