// For the sync engine's tests: a device is a memory store, a client of one server database and
// the verbs a user's edits come through (a session made, renamed, archived, deleted; a message).
import { testSessionRow } from '../../src/lib/db/test-session-row';
import { CouchClient, type CouchClientOptions } from '../../src/lib/sync/couch-client';
import { MemorySyncStore } from '../../src/lib/sync/memory-sync-store';
import type { MessageDoc } from '../../src/lib/sync/message-document';
import { nextPosition, type RandomBytes } from '../../src/lib/sync/position';
import { sessionRowFields, stampSession } from '../../src/lib/sync/session-document';
import { SyncLoop, type SyncLoopOptions } from '../../src/lib/sync/sync-loop';
import { seededRandom } from '../../src/lib/sync/test-random';
import type { SessionRow } from '../../src/lib/db/schema';

export class Device {
	readonly store = new MemorySyncStore();
	readonly client: CouchClient;
	readonly loop: SyncLoop;
	private readonly random: RandomBytes;
	/** This device's wall clock: each edit a millisecond on (two devices may disagree). */
	now: number;

	constructor(dbUrl: string, seed: number, { client, loop }: { client?: Partial<CouchClientOptions>; loop?: Partial<SyncLoopOptions> } = {}) {
		this.client = new CouchClient({ url: dbUrl, ...client });
		this.loop = new SyncLoop({ store: this.store, client: this.client, ...loop });
		this.random = seededRandom(seed);
		this.now = Date.UTC(2026, 0, 1) + seed;
	}

	sync() {
		return this.loop.syncOnce();
	}

	createSession(id: string, title: string): void {
		this.edit(id, { title, created_at: this.now, last_activity_at: this.now });
	}

	rename(id: string, title: string): void {
		this.edit(id, { title, title_source: 'user' });
	}

	archive(id: string): void {
		this.edit(id, { archived: 1 });
	}

	deleteSession(id: string): void {
		this.store.deleteSession(id, ++this.now);
	}

	append(sessionId: string, content: string, role: 'user' | 'assistant' = 'user'): MessageDoc {
		const last = this.store.messages(sessionId).at(-1)?.position;
		const position = nextPosition(last, ++this.now, this.random);
		const doc: MessageDoc = {
			session_id: sessionId,
			position,
			message: { id: `m-${position}`, role, content, status: 'complete', kind: 'message', created_at: this.now }
		};
		this.store.appendMessage(doc);
		return doc;
	}

	contents(sessionId: string): string[] {
		return this.store.messages(sessionId).map((doc) => doc.message.content);
	}

	private edit(id: string, change: Partial<SessionRow>): void {
		const previous = this.store.session(id);
		const row = { ...testSessionRow(id), ...(previous ? sessionRowFields(previous) : {}), ...change };
		this.store.writeSession(stampSession(row, previous, ++this.now, this.random));
	}
}

/** A fetch that records each request's method, path and body size before passing it on. */
export function recordingFetch(log: { method: string; path: string; bytes: number; status?: number }[], inner: typeof fetch = fetch): typeof fetch {
	return async (input, init) => {
		const url = new URL(String(input));
		const entry: { method: string; path: string; bytes: number; status?: number } = {
			method: init?.method ?? 'GET',
			path: url.pathname + url.search,
			bytes: typeof init?.body === 'string' ? new TextEncoder().encode(init.body).byteLength : 0
		};
		log.push(entry);
		const response = await inner(input, init);
		entry.status = response.status;
		return response;
	};
}
