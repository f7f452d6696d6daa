// For sync's tests: a device is a profile database (fake IndexedDB in Node), the app's own verbs on
// it, its sync store and loop to one server database, and a clock of its own (devices disagree).
// `conversation` is what the device shows and `request` what it would send the model: what every
// device must agree on once sync is quiet.
import { buildRequestMessages } from '../../src/lib/agent/build-request';
import { commitCompaction, commitRotation, listActiveMessages } from '../../src/lib/db/compaction-verbs';
import type { PalimpsestDb } from '../../src/lib/db/database';
import { openProfileDb } from '../../src/lib/db/database';
import { appendMessages, deleteMessages, listMessages, updateMessage } from '../../src/lib/db/message-verbs';
import { encodeBase64 } from '../../src/lib/hooks/image-bytes';
import type { ChatSettings, MessageRow, SessionRow } from '../../src/lib/db/schema';
import { setChatSettings } from '../../src/lib/sessions/set-chat-settings';
import { renameSession, setPinned } from '../../src/lib/db/session-verbs';
import { restoreFromTrash } from '../../src/lib/db/trash-verbs';
import { liveMarkers, nextMarkerTime } from '../../src/lib/db/live-markers';
import { showVersion, startVersion } from '../../src/lib/db/version-verbs';
import { commitSummaryEdit } from '../../src/lib/db/edit-summary-verbs';
import { commitUndoCompaction } from '../../src/lib/db/undo-compaction-verbs';
import { archiveSessions, unarchiveSessions } from '../../src/lib/sessions/archive-sessions';
import { deleteSessions } from '../../src/lib/sessions/delete-sessions';
import { createSession } from '../../src/lib/sessions/session-lifecycle';
import { buildSessionRow } from '../../src/lib/sessions/build-session-row';
import type { SessionContext } from '../../src/lib/sessions/session-context';
import { CouchClient } from '../../src/lib/sync/couch-client';
import { createSyncStore, type DexieSyncStore, type SyncStoreOptions } from '../../src/lib/sync/dexie-sync-store';
import { SyncLoop, type PassOutcome } from '../../src/lib/sync/sync-loop';
import { createKeyStore } from '../../src/lib/sync/dexie-key-store';
import type { KeyStore } from '../../src/lib/sync/keyring';
import { SealingSetup } from '../../src/lib/sync/prepare-sealing';
import { SealedClient } from '../../src/lib/sync/sealed-client';
import { seededRandom } from '../../src/lib/sync/test-random';

/** A tiny PNG (1 × 1): bytes that begin as an image says, as a synced image must. */
export const TINY_PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

export interface DeviceOptions {
	/** How far this device's clock is off (ms). */
	skewMs?: number;
	fetch?: typeof fetch;
	store?: Omit<SyncStoreOptions, 'profile' | 'now' | 'random'>;
	seed?: number;
	/** Given (a string, or null for none yet): sync checks the database's encryption each pass, as the app does, with this Sync passphrase typed. */
	passphrase?: string | null;
	/** Smaller batches than the app's: bytes a request carries and changes a page of the feed holds (so a few rows take several). */
	loop?: { batchBytes?: number; pullLimit?: number };
}

export class Device {
	readonly db: PalimpsestDb;
	readonly ctx: SessionContext;
	readonly store: DexieSyncStore;
	client!: CouchClient;
	loop!: SyncLoop;
	/** The hooks this device fired (only the device where something happened fires any). */
	readonly fired: Array<{ name: string; payload: unknown }> = [];
	readonly #fetch: typeof fetch | undefined;
	readonly #sizes: { batchBytes?: number; pullLimit?: number };
	/** Whether sync knows of encryption here (see DeviceOptions.passphrase). */
	readonly #sealing: boolean;
	/** Where this device keeps an encrypted database's keys. */
	readonly keys: KeyStore;
	readonly profile: string;
	/** This device's idea of the time: the test's clock, off by its skew. */
	skewMs: number;
	static clock = Date.UTC(2026, 0, 1);
	#serial = 0;
	/** Sessions with an answer streaming here: a turn holds its session's lock meanwhile. */
	readonly streaming = new Set<string>();

	constructor(url: string, name: string, options: DeviceOptions = {}) {
		this.profile = `${name}-${crypto.randomUUID()}`;
		this.db = openProfileDb(this.profile);
		this.skewMs = options.skewMs ?? 0;
		const now = () => this.now();
		this.ctx = { db: this.db, profile: this.profile, platform: 'web', now, hooks: { notify: async (name, payload) => void this.fired.push({ name, payload }) } };
		this.#fetch = options.fetch;
		this.#sizes = options.loop ?? {};
		this.store = createSyncStore(this.db, { profile: this.profile, now, random: seededRandom(options.seed ?? 1), busy: () => this.streaming, ...options.store });
		this.keys = createKeyStore(this.db);
		this.#sealing = options.passphrase !== undefined;
		this.#connect(url, { passphrase: options.passphrase ?? null });
	}

	/** Syncs with another database from now on (Settings → Sync server changed), with a passphrase typed or none. */
	useDatabase(url: string, passphrase: string | null = null): void {
		this.#connect(url, { passphrase });
	}

	/** Start sync again, as with Settings → Sync: a passphrase typed, or a new one to change to. */
	startSync(typed: { passphrase?: string | null; change?: string | null }): void {
		this.#connect(this.client.url, typed);
	}

	#connect(url: string, typed: { passphrase?: string | null; change?: string | null }): void {
		const now = () => this.now();
		if (!this.#sealing) {
			this.client = new CouchClient({ url, fetch: this.#fetch, now });
			this.loop = new SyncLoop({ store: this.store, client: this.client, ...this.#sizes });
			return;
		}
		const client = new SealedClient({ url, fetch: this.#fetch, now });
		const sealing = new SealingSetup({ client, keys: this.keys, now, ...typed });
		this.client = client;
		this.loop = new SyncLoop({ store: this.store, client, beforePass: (signal) => sealing.prepare(signal), ...this.#sizes });
	}

	/** The test's clock moves on a little with every reading, as time does. */
	now(): number {
		Device.clock += 7;
		return Device.clock + this.skewMs;
	}

	sync(): Promise<PassOutcome> {
		return this.loop.syncOnce();
	}

	async close(): Promise<void> {
		this.db.close();
		await this.db.delete();
	}

	#id(prefix: string): string {
		return `${prefix}-${this.profile.slice(0, 6)}-${++this.#serial}`;
	}

	message(role: MessageRow['role'], content: string, extra: Partial<MessageRow> = {}) {
		return { id: this.#id('m'), role, content, status: 'complete' as const, kind: 'message' as const, created_at: this.now(), ...extra };
	}

	async newSession(): Promise<string> {
		return (await createSession(this.ctx, { provider: 'offline', model: 'offline-mini' })).id;
	}

	/** A question and its answer. */
	async send(sessionId: string, text: string): Promise<void> {
		await appendMessages(this.db, sessionId, [this.message('user', text), this.message('assistant', `answer to ${text}`)], this.now());
	}

	/** A question, and an answer that streams: its first words are stored, the rest comes with `finish`. */
	async startAnswer(sessionId: string, text: string): Promise<[string, number]> {
		const [, answer] = await appendMessages(this.db, sessionId, [this.message('user', text), this.message('assistant', '', { status: 'streaming' })], this.now());
		await updateMessage(this.db, [sessionId, answer.seq], { content: `first words on ${text}` });
		this.streaming.add(sessionId);
		return [sessionId, answer.seq];
	}

	/** More words of an answer still streaming (sync may run between its parts). */
	async continueAnswer(key: [string, number]): Promise<void> {
		const row = await this.db.messages.get(key);
		if (!row) throw new Error(`The answer streaming at ${key.join(':')} lost its row.`);
		await updateMessage(this.db, key, { content: `${row.content}, then more` });
	}

	async finishAnswer(key: [string, number], status: 'complete' | 'error' = 'complete'): Promise<void> {
		this.streaming.delete(key[0]);
		const row = await this.db.messages.get(key);
		if (!row) throw new Error(`The answer streaming at ${key.join(':')} lost its row.`);
		await updateMessage(this.db, key, { content: `${row.content}, and the rest`, status, ...(status === 'error' ? { error: 'The provider failed.' } : {}) });
	}

	/** A question, a tool call, its result and an answer: something to prune. */
	async sendWithTool(sessionId: string, text: string): Promise<void> {
		const call = { id: this.#id('call'), name: 'lookup', arguments: '{}' };
		await appendMessages(
			this.db,
			sessionId,
			[this.message('user', text), this.message('assistant', '', { tool_calls: [call] }), this.message('tool', `result for ${text} `.repeat(20), { tool_call_id: call.id }), this.message('assistant', `answer to ${text}`)],
			this.now()
		);
	}

	/** A question with an image attached. */
	async attach(sessionId: string, text: string): Promise<void> {
		const id = this.#id('img');
		const attachment = { type: 'image' as const, id, name: 'dot.png', mimeType: 'image/png', size: TINY_PNG.byteLength, width: 1, height: 1 };
		await appendMessages(this.db, sessionId, [this.message('user', text, { attachments: [attachment] })], this.now(), {}, [{ id, type: 'image/png', data: new Blob([TINY_PNG], { type: 'image/png' }) }]);
	}

	async active(sessionId: string): Promise<MessageRow[]> {
		return listActiveMessages(this.db, sessionId);
	}

	/** Edits the `nth` user message on show (from the end), as Edit does. */
	async edit(sessionId: string, nth = 0): Promise<boolean> {
		const rows = await this.active(sessionId);
		const users = rows.filter((row) => row.role === 'user' && row.kind === 'message');
		const target = users.at(-1 - (nth % Math.max(1, users.length)));
		if (!target) return false;
		const before = rows[rows.indexOf(target) - 1];
		if (rows.slice(rows.indexOf(target)).some((row) => row.compaction || row.kind === 'summary')) return false;
		const { rows: added } = await startVersion(this.db, sessionId, before?.seq ?? null, target.seq, [this.message('user', `${target.content} (edited)`)], this.now());
		await appendMessages(this.db, sessionId, [this.message('assistant', `answer to ${added[0].content}`)], this.now());
		return true;
	}

	/** Regenerates the last answer on show. */
	async regenerate(sessionId: string): Promise<boolean> {
		const rows = await this.active(sessionId);
		const answer = rows.findLast((row) => row.role === 'assistant');
		const question = answer && rows[rows.indexOf(answer) - 1];
		if (!answer || !question || rows.slice(rows.indexOf(answer)).some((row) => row.compaction || row.kind === 'summary')) return false;
		await startVersion(this.db, sessionId, question.seq, answer.seq, [], this.now());
		await appendMessages(this.db, sessionId, [this.message('assistant', `another answer to ${question.content}`)], this.now());
		return true;
	}

	/** Shows another version at the `nth` place with versions. */
	async switchVersion(sessionId: string, nth = 0): Promise<boolean> {
		const session = await this.db.sessions.get(sessionId);
		const points = session?.versions ?? [];
		const point = points[nth % Math.max(1, points.length)];
		if (!point) return false;
		try {
			await showVersion(this.db, sessionId, point.after, (point.shown % point.count) + 1);
			return true;
		} catch {
			return false;
		}
	}

	/** Summarises all but the last two context rows (the summary sits before the kept tail). */
	async compact(sessionId: string): Promise<boolean> {
		const active = await this.active(sessionId);
		const rows = active.filter((row) => row.kind === 'message' || row.kind === 'summary');
		if (rows.length < 4) return false;
		const removed = rows.slice(0, -2);
		const kept = rows.at(-2)!;
		const id = this.#id('c');
		const now = this.now();
		const marker = { id, kind: 'summarize' as const, reason: 'manual' as const, before_tokens: 100, after_tokens: 10, messages_removed: removed.length, at: nextMarkerTime(active, now) };
		const summary = { ...this.message('user', `summary of ${removed.length} messages`), kind: 'summary' as const, compaction: marker };
		await commitCompaction(this.db, { sessionId, compactionId: id, removed: removed.map((row) => row.seq), inserted: [{ before: kept.seq, row: summary }], compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }, tokenEstimate: 10, now });
		return true;
	}

	/**
	 * Compacts into a child session, as a compaction that is not in place does: the session ends,
	 * and the child holds the summary and the last two context rows. The child's id, or null.
	 */
	async rotate(sessionId: string): Promise<string | null> {
		const parent = await this.db.sessions.get(sessionId);
		const rows = (await this.active(sessionId)).filter((row) => row.kind === 'message' || row.kind === 'summary');
		if (!parent || parent.ended_at !== null || rows.length < 4) return null;
		const now = this.now();
		const marker = { id: this.#id('c'), kind: 'summarize' as const, reason: 'manual' as const, before_tokens: 100, after_tokens: 10, messages_removed: rows.length - 2, at: now, old_session_id: sessionId };
		const summary = { ...this.message('user', `summary of ${rows.length - 2} messages`), kind: 'summary' as const, compaction: marker };
		const built = buildSessionRow(this.ctx, { provider: parent.provider, model: parent.model, title: parent.title, session_key: parent.session_key, parent_session_id: parent.id, parent_kind: 'compression' });
		const state = { failures: 0, cooldown_until: 0, turns_since_micro: 0 };
		const child = { ...built, title_source: parent.title_source, pinned: parent.pinned, token_estimate: 10, compaction: state };
		const tail = rows.slice(-2).map(({ seq: _seq, position: _position, rank: _rank, session_id: _session, ...row }) => row);
		return (await commitRotation(this.db, { parentId: sessionId, endedAt: now, child, rows: [summary, ...tail], parentCompaction: state })).id;
	}

	/** Prunes the tool results on show: each becomes a stub right after it, a notice before the first. */
	async prune(sessionId: string): Promise<boolean> {
		const active = await this.active(sessionId);
		const results = active.filter((row) => row.role === 'tool' && !row.content.startsWith('[pruned'));
		if (!results.length) return false;
		const id = this.#id('p');
		const now = this.now();
		const marker = { id, kind: 'prune_tool_results' as const, reason: 'manual' as const, before_tokens: 100, after_tokens: 50, messages_removed: results.length, at: nextMarkerTime(active, now) };
		const notice = { ...this.message('system', 'Tool outputs pruned'), kind: 'notice' as const, compaction: marker, created_at: now };
		const stubs = results.map((row) => ({ after: row.seq, row: { ...this.message('tool', `[pruned ${row.id}]`, { tool_call_id: row.tool_call_id }), created_at: now } }));
		await commitCompaction(this.db, { sessionId, compactionId: id, removed: results.map((row) => row.seq), inserted: [{ before: results[0].seq, row: notice }, ...stubs], compaction: { failures: 0, cooldown_until: 0, turns_since_micro: 0 }, tokenEstimate: 50, now });
		return true;
	}

	async undo(sessionId: string): Promise<boolean> {
		const marker = liveMarkers(await this.active(sessionId)).at(-1);
		if (!marker || marker.compaction!.old_session_id) return false;
		try {
			await commitUndoCompaction(this.db, sessionId, marker.compaction!.id, this.now());
			return true;
		} catch {
			return false;
		}
	}

	async editSummary(sessionId: string): Promise<boolean> {
		const marker = liveMarkers(await this.active(sessionId)).at(-1);
		if (!marker || marker.kind !== 'summary') return false;
		try {
			await commitSummaryEdit(this.db, sessionId, marker.compaction!.id, `${marker.content} (edited)`, this.now());
			return true;
		} catch {
			return false;
		}
	}

	/** Removes the last answer if it failed, as Retry does. */
	async removeFailed(sessionId: string): Promise<boolean> {
		const rows = await listMessages(this.db, sessionId);
		const failed = rows.findLast((row) => row.role === 'assistant' && row.status === 'error');
		if (!failed) return false;
		await deleteMessages(this.db, sessionId, [failed.seq]);
		return true;
	}

	async rename(sessionId: string, title: string): Promise<void> {
		await renameSession(this.db, sessionId, title);
	}

	async setChatSettings(sessionId: string, settings: ChatSettings): Promise<void> {
		await setChatSettings(this.ctx, sessionId, settings);
	}

	async pin(sessionId: string, pinned: boolean): Promise<void> {
		await setPinned(this.db, sessionId, pinned);
	}

	async archive(sessionId: string, archived: boolean): Promise<void> {
		if (archived) await archiveSessions(this.ctx, [sessionId]);
		else await unarchiveSessions(this.ctx, [sessionId]);
	}

	async delete(sessionId: string): Promise<void> {
		await deleteSessions(this.ctx, [sessionId]);
	}

	async restore(sessionId: string): Promise<boolean> {
		return restoreFromTrash(this.db, sessionId);
	}

	async sessionIds(): Promise<string[]> {
		return ((await this.db.sessions.toCollection().primaryKeys()) as string[]).sort();
	}

	async trashIds(): Promise<string[]> {
		return ((await this.db.sync_trash.toCollection().primaryKeys()) as string[]).sort();
	}

	async contents(sessionId: string): Promise<string[]> {
		return (await listMessages(this.db, sessionId)).map((row) => row.content);
	}

	/** What the device shows of a session: its synced fields, its versions, and its rows in order with what is derived of them. */
	async conversation(sessionId: string): Promise<unknown> {
		const session = await this.db.sessions.get(sessionId);
		if (!session) return null;
		const rows = await listMessages(this.db, sessionId);
		// Seqs are this device's own: a place with versions is named by the index of the row it follows.
		const indexOf = new Map(rows.map((row, index) => [row.seq, index]));
		const versions = (session.versions ?? []).map((point) => ({ ...point, after: point.after === null ? null : (indexOf.get(point.after) ?? 'gone') }));
		return {
			session: { ...sessionView(session), versions },
			rows: rows.map((row) => ({
				id: row.id,
				role: row.role,
				kind: row.kind,
				content: row.content,
				status: row.status,
				active: row.active,
				...(row.shelved ? { shelved: [row.shelved.after === null ? null : (indexOf.get(row.shelved.after) ?? 'gone'), row.shelved.version] } : {}),
				...(row.compacted_by ? { compacted_by: row.compacted_by } : {}),
				...(row.compaction ? { compaction: row.compaction } : {}),
				...(row.retired_by ? { retired: true } : {}),
				...(row.attachments ? { attachments: row.attachments.map((a) => a.id) } : {}),
				...(row.blobs_not_synced?.length ? { missing: row.blobs_not_synced.map((b) => b.id) } : {})
			}))
		};
	}

	/** What the device would send the model for a session (its images' bytes included). */
	async request(sessionId: string): Promise<unknown> {
		const rows = await listActiveMessages(this.db, sessionId);
		const images = new Map<string, { mimeType: string; data: string }>();
		for (const blob of await this.db.blobs.where('[session_id+id]').between([sessionId, ''], [sessionId, '\uffff']).toArray()) {
			images.set(blob.id, { mimeType: blob.type, data: encodeBase64(new Uint8Array(await blob.data.arrayBuffer())) });
		}
		return buildRequestMessages({ systemPrompt: '', rows, userSeq: -1, injected: '', images });
	}
}

function sessionView(session: SessionRow) {
	const { title, title_source, session_key, ended_at, end_reason, parent_session_id, parent_kind, archived, pinned, model, versions, chat_settings } = session;
	return { title, title_source, session_key, ended_at, end_reason, parent_session_id, parent_kind, archived, pinned, model, versions: versions ?? [], chat_settings: chat_settings ?? null };
}

/** Syncs every device in turn until a whole round moves nothing (at most `rounds` rounds); returns the passes it took. */
export async function quiesce(devices: readonly Device[], rounds = 12): Promise<number> {
	for (let round = 0; round < rounds; round++) {
		let moved = 0;
		for (const device of devices) {
			const outcome = await device.sync();
			moved += outcome.pushed + outcome.pulled;
		}
		if (!moved) return (round + 1) * devices.length;
	}
	throw new Error(`Sync did not settle in ${rounds} rounds.`);
}
