// Applies documents that arrived, inside a sync transaction (this device's pending changes are
// taken into its documents first, so no arrival overwrites or "sends" them). Each document is
// merged with this device's copy; what differs from the server's stays to send. A session deleted
// elsewhere moves to "Recently deleted" (more than a pull may move at once: it asks first); one
// restored elsewhere comes back; a purged one is gone for good. A message of a session not here
// waits with its session. No hook fires for anything that arrives.
import { Dexie } from '../db/database';
import { readSessionRows } from '../db/conversation-verbs';
import { blobsNoLongerShown } from '../db/message-verbs';
import { NO_COMPACTION_STATE, type BlobRow, type MessageRow, type SessionRow, type SyncDocRow } from '../db/schema';
import { addBlobToTrash, moveSessionToTrash, takeSessionFromTrash } from '../db/trash-verbs';
import { blobEntries, putArrivedBlobs, readBlobRows, withBlobNote } from './dexie-blobs';
import { localProviderOf, messageClocksOf, nextEdit, sessionDocOf, type SyncContext } from './dexie-context';
import { settleSession, writeRows, type ArrivingRow } from './dexie-rows';
import { readEntries } from './dexie-read-runs';
import { blobDocId, messageDocId, sessionDocId, type DocumentId } from './document-ids';
import { mergeMessageDocs, sameMessage } from './merge-message';
import { mergeSessionDocs, sameSession } from './merge-session';
import { fieldsOfRow, rowFieldsOf, type MessageDoc } from './message-document';
import { sessionRowFields, stampSession, type SessionDoc } from './session-document';
import { digestsOf } from './stamp-message';
import { DeletionsToConfirm, type ApplyOptions, type PulledDoc } from './sync-store';
import { applyDeletedPrompt, applyPrompts } from './dexie-prompts';
import { applyAssistants, applyDeletedAssistant } from './dexie-assistants';

type Pulled<K extends PulledDoc['kind']> = Extract<PulledDoc, { kind: K }>;

/** What the apply knows of one session as it goes. */
interface SessionState {
	entry: SyncDocRow | undefined;
	/** Its row as stored now (every write of it here keeps this up to date). */
	row: SessionRow | undefined;
	/** Its rows changed: counters and conversation to settle. */
	touched: boolean;
	nextSeq: number;
	/** All its message rows as this apply wrote them (in seq order), while nothing else wrote them: settled without reading them again. */
	rows?: MessageRow[];
}

/** The document this device holds of a message whose row is `row` (fields from the row, clocks from sync). */
function localDocOf(ctx: SyncContext, row: MessageRow, entry: SyncDocRow | undefined, blobs: Map<string, BlobRow>): MessageDoc {
	const clocks = messageClocksOf(entry);
	return { session_id: row.session_id, position: row.position, clock: clocks?.clock ?? row.position, fields: fieldsOfRow(row, blobEntries(row, blobs, ctx.limit)), clocks: clocks?.clocks ?? {}, removed: false };
}

/** A message's row from its document, keeping what is this device's own (request recipe, plugin context, counts of unchanged text). */
function rowFrom(doc: MessageDoc, row: MessageRow | undefined): ArrivingRow {
	const fields = rowFieldsOf(doc);
	const kept: Partial<MessageRow> = {};
	if (row) {
		if (row.sent) kept.sent = row.sent;
		if (row.injected) kept.injected = row.injected;
		if (row.tokens !== undefined && row.content === fields.content && JSON.stringify(row.tool_calls ?? null) === JSON.stringify(fields.tool_calls ?? null)) Object.assign(kept, { tokens: row.tokens, encoding: row.encoding });
	}
	return { ...fields, ...kept, session_id: doc.session_id, active: row?.active ?? 1, ...(row ? { seq: row.seq } : {}), ...(row?.shelved ? { shelved: row.shelved } : {}) } as ArrivingRow;
}

/**
 * The session's provider as this device names it, and, where this device has none for the
 * document's server, what that provider was (its name, server and kind), so the chat can say so
 * and offer to add one.
 */
function providerFields(ctx: SyncContext, doc: SessionDoc, row?: SessionRow): Pick<SessionRow, 'provider' | 'named_provider'> {
	const provider = localProviderOf(ctx, doc);
	const ref = doc.fields.provider_ref;
	if (ctx.providers.some((entry) => entry.id === provider) || !ref) return { provider, named_provider: row?.named_provider };
	return { provider, named_provider: { id: provider, name: ref.name, base_url: ref.base_url, preset: ref.preset } };
}

/** A new session row for a document that arrived (filed under this profile). */
function newSessionRow(ctx: SyncContext, doc: SessionDoc): SessionRow {
	const row: SessionRow = { ...sessionRowFields(doc), ...providerFields(ctx, doc), profile: ctx.profile, message_count: 0, token_estimate: 0, next_seq: 0, compaction: { ...NO_COMPACTION_STATE } };
	if (!row.named_provider) delete row.named_provider;
	return row;
}

/** The row with the synced fields of `doc` (the same row when nothing differs). */
function updatedSessionRow(ctx: SyncContext, row: SessionRow, doc: SessionDoc): SessionRow {
	const next: SessionRow = { ...row, ...sessionRowFields(doc), ...providerFields(ctx, doc, row) };
	if (!next.named_provider) delete next.named_provider;
	if (!doc.fields.chat_settings) delete next.chat_settings;
	if (!doc.fields.assistant) delete next.assistant;
	if (!doc.shown || !Object.keys(doc.shown).length) delete next.version_shown;
	return JSON.stringify(next) === JSON.stringify(row) ? row : next;
}

type Deleted = Extract<PulledDoc, { kind: 'deleted' }>;
/** A document of a saved prompt, or its deletion on the server: it belongs to no session. */
type PromptPart = Extract<PulledDoc, { kind: 'prompt' }> | (Deleted & { id: Extract<DocumentId, { kind: 'prompt' }> });
/** A document of an assistant, or its deletion on the server: it belongs to no session. */
type AssistantPart = Extract<PulledDoc, { kind: 'assistant' }> | (Deleted & { id: Extract<DocumentId, { kind: 'assistant' }> });
/** A document of a session. */
type SessionPart = Exclude<PulledDoc, { kind: 'prompt' | 'assistant' | 'deleted' }> | (Deleted & { id: Exclude<DocumentId, { kind: 'prompt' | 'assistant' }> });

const sessionOf = (doc: SessionPart) => (doc.kind === 'session' || doc.kind === 'message' ? doc.doc.session_id : doc.kind === 'blob' ? doc.session_id : doc.id.session_id);

const isPromptPart = (doc: PulledDoc): doc is PromptPart => doc.kind === 'prompt' || (doc.kind === 'deleted' && doc.id.kind === 'prompt');
const isAssistantPart = (doc: PulledDoc): doc is AssistantPart => doc.kind === 'assistant' || (doc.kind === 'deleted' && doc.id.kind === 'assistant');

/** Applies `docs`; returns how many sessions moved to "Recently deleted". */
export async function applyDocs(ctx: SyncContext, all: readonly PulledDoc[], options: ApplyOptions, kept: ReadonlyMap<string, BlobRow>): Promise<{ deleted: number }> {
	const { db } = ctx;
	// Saved prompts belong to no session: applied on their own.
	const prompts = all.filter(isPromptPart);
	await applyPrompts(ctx, prompts.flatMap((doc) => (doc.kind === 'prompt' ? [doc] : [])));
	for (const doc of prompts) if (doc.kind === 'deleted') await applyDeletedPrompt(ctx, doc.id.prompt_id, doc.rev);
	// Assistants too.
	const assistants = all.filter(isAssistantPart);
	await applyAssistants(ctx, assistants.flatMap((doc) => (doc.kind === 'assistant' ? [doc] : [])));
	for (const doc of assistants) if (doc.kind === 'deleted') await applyDeletedAssistant(ctx, doc.id.assistant_id, doc.rev);
	const docs = all.filter((doc): doc is SessionPart => !isPromptPart(doc) && !isAssistantPart(doc));
	const sessionIds = [...new Set(docs.map(sessionOf))];
	const [entries, rows, trash] = await Promise.all([db.sync_docs.bulkGet(sessionIds.map(sessionDocId)), db.sessions.bulkGet(sessionIds), db.sync_trash.bulkGet(sessionIds)]);
	const states = new Map<string, SessionState>(sessionIds.map((id, i) => [id, { entry: entries[i], row: rows[i], touched: false, nextSeq: rows[i]?.next_seq ?? 0 }]));
	const inTrash = new Set(sessionIds.filter((_, i) => trash[i]));
	const sessionDocs = docs.filter((doc): doc is Pulled<'session'> => doc.kind === 'session');

	// Sessions first. Deletions that would move more than allowed are asked about before anything is written.
	const merged = new Map(sessionDocs.map((pulled) => {
		const local = sessionDocOf(states.get(pulled.doc.session_id)!.entry);
		return [pulled.doc.session_id, local ? mergeSessionDocs(local, pulled.doc) : pulled.doc];
	}));
	const deleting = [...merged].filter(([id, doc]) => doc.purged_at === null && doc.fields.deleted_at !== null && states.get(id)!.row && !options.keep?.has(id)).map(([id]) => id);
	const asked = deleting.filter((id) => !options.approved?.has(id));
	if (asked.length > (options.allowDeletions ?? Infinity)) throw new DeletionsToConfirm(asked);
	const reread = new Set<string>();
	// Each session's work touches only its own rows, so sessions go side by side (IndexedDB then answers a page in a few round trips, not a few per session).
	const docsOf = new Map<string, Pulled<'session'>[]>();
	for (const pulled of sessionDocs) (docsOf.get(pulled.doc.session_id) ?? docsOf.set(pulled.doc.session_id, []).get(pulled.doc.session_id)!).push(pulled);
	await Promise.all(
		[...docsOf.values()].map(async (own) => {
			for (const pulled of own) await applySession(ctx, pulled, merged.get(pulled.doc.session_id)!, states.get(pulled.doc.session_id)!, inTrash, options, reread);
		})
	);

	// Messages, per session: merged with what is here, then written where their ranks put them.
	// Each session's rows go in requests of their own: Dexie tells open tabs which keys a write of
	// under 50 rows changed, and a larger write says "everything", so a tab would read its open
	// session again for every page that arrives.
	const bySession = new Map<string, Pulled<'message'>[]>();
	for (const doc of docs) if (doc.kind === 'message') (bySession.get(doc.doc.session_id) ?? bySession.set(doc.doc.session_id, []).get(doc.doc.session_id)!).push(doc);
	for (const sessionId of reread) if (!bySession.has(sessionId)) bySession.set(sessionId, []);
	await Promise.all([...bySession].map(async ([sessionId, pulled]) => applyMessages(ctx, states.get(sessionId) ?? (await stateOf(ctx, sessionId, states)), pulled, reread.has(sessionId))));

	// Blobs, and the server's own deletions.
	for (const doc of docs) {
		if (doc.kind === 'blob') await applyBlob(ctx, doc, states.get(doc.session_id)!, kept.get(blobDocId(doc.session_id, doc.blob_id)));
		else if (doc.kind === 'deleted') await applyDeleted(ctx, doc, states.get(doc.id.session_id)!);
		else if (doc.kind === 'message' && doc.legacyBlobs?.length) {
			for (const blob of doc.legacyBlobs) {
				const row = kept.get(`${messageDocId(doc.doc.session_id, doc.doc.position)}\n${blob.id}`);
				if (row) {
					await putArrivedBlobs(db, [row]);
					states.get(doc.doc.session_id)!.touched = true;
				}
			}
		}
	}
	// Each touched session's row is the one this apply last wrote or read: settled without reading it again.
	await Promise.all(
		[...states.values()].map(async (state) => {
			if (state.touched && state.row) state.row = await settleSession(ctx, state.row, state.nextSeq, state.rows);
		})
	);
	return { deleted: deleting.length };
}

/**
 * Writes the messages held for sessions that are live here now (restored here, or whose arrivals
 * waited for a tab to finish its work on them).
 */
export async function applyHeld(ctx: SyncContext, sessionIds: Iterable<string>): Promise<void> {
	const states = new Map<string, SessionState>();
	for (const sessionId of sessionIds) {
		if (ctx.busy.has(sessionId)) continue;
		const state = await stateOf(ctx, sessionId, states);
		await applyMessages(ctx, state, [], true);
		if (state.touched && state.row) await settleSession(ctx, state.row, state.nextSeq, state.rows);
	}
}

async function stateOf(ctx: SyncContext, sessionId: string, states: Map<string, SessionState>): Promise<SessionState> {
	const [entry, row] = await Promise.all([ctx.db.sync_docs.get(sessionDocId(sessionId)), ctx.db.sessions.get(sessionId)]);
	const state = { entry, row, touched: false, nextSeq: row?.next_seq ?? 0 };
	states.set(sessionId, state);
	return state;
}

/** One session document, merged: its entry, and its row where it is live, in the trash, or gone. */
async function applySession(ctx: SyncContext, pulled: Pulled<'session'>, mergedDoc: SessionDoc, state: SessionState, inTrash: ReadonlySet<string>, options: ApplyOptions, reread: Set<string>): Promise<void> {
	const { db } = ctx;
	const sessionId = pulled.doc.session_id;
	const before = state.entry;
	const local = sessionDocOf(before);
	let doc = mergedDoc;
	const { dropped: _d, refetch: refetchBefore, deleted_seen: seenBefore, legacy: _l, trash_later: _t, ...rest } = before ?? ({} as Partial<SyncDocRow>);
	let entry: SyncDocRow = { ...rest, id: sessionDocId(sessionId), kind: 'session', session_id: sessionId, rev: pulled.rev, edit: before?.edit ?? 0, dirty: 0, refused: before?.refused ?? 0, doc };
	if (doc.purged_at !== null) {
		// Deleted for good: nothing of it stays here, and its documents are the purger's to remove.
		await Promise.all([
			db.sessions.delete(sessionId),
			db.messages.where('[session_id+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).delete(),
			db.blobs.where('[session_id+id]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]).delete(),
			db.sync_trash.delete(sessionId),
			db.sync_docs.where('session_id').equals(sessionId).filter((row) => row.kind !== 'session').delete()
		]);
		state.row = undefined;
	} else if (doc.fields.deleted_at !== null) {
		if (state.row && options.keep?.has(sessionId)) {
			// Kept by the user: the deletion is undone, here and (once sent) everywhere.
			doc = stampSession(sessionId, state.row, doc, { at: ctx.now, random: ctx.random });
			entry = { ...entry, doc };
		} else if (state.row && ctx.busy.has(sessionId)) {
			// A tab works on it (an answer streaming): it goes once that work is done (see maintain).
			entry.trash_later = 1;
			entry.deleted_seen = seenBefore ?? ctx.now;
		} else {
			if (state.row) await moveSessionToTrash(db, sessionId, ctx.now);
			state.row = undefined;
			entry.deleted_seen = seenBefore ?? ctx.now;
		}
	} else if (state.row) {
		const next = updatedSessionRow(ctx, state.row, doc);
		if (next !== state.row) {
			await db.sessions.put(next);
			if (JSON.stringify(next.version_shown ?? null) !== JSON.stringify(state.row.version_shown ?? null)) state.touched = true;
			state.row = next;
		}
		if (refetchBefore) entry.refetch = 1;
	} else {
		// Live again (restored elsewhere), or new here: from the trash when it is there, else its rows are read again.
		const kept = inTrash.has(sessionId) ? await takeSessionFromTrash(db, sessionId) : undefined;
		const row = kept ? updatedSessionRow(ctx, kept.session, doc) : newSessionRow(ctx, doc);
		await db.sessions.put(row);
		state.row = row;
		state.nextSeq = row.next_seq;
		state.touched = true;
		reread.add(sessionId);
		if (before && !kept) entry.refetch = 1;
	}
	const changed = !local || !sameSession(doc, local);
	entry = { ...entry, edit: changed ? nextEdit(ctx) : entry.edit, dirty: sameSession(doc, pulled.doc) && !pulled.losers?.length ? 0 : 1, ...(pulled.losers?.length ? { losers: pulled.losers } : {}) };
	if (changed) entry.refused = 0;
	await db.sync_docs.put(entry);
	state.entry = entry;
}

/** A session's message documents (and those held for it, when it has just come), merged and written. */
async function applyMessages(ctx: SyncContext, state: SessionState, pulled: readonly Pulled<'message'>[], withHeld: boolean): Promise<void> {
	const { db } = ctx;
	const sessionDoc = sessionDocOf(state.entry);
	const ids = pulled.map((p) => messageDocId(p.doc.session_id, p.doc.position));
	const purged = sessionDoc?.purged_at != null;
	const live = !purged && state.row !== undefined && sessionDoc?.fields.deleted_at === null;
	if (!live) {
		const known = await readEntries(db, ids);
		// Not here (yet, or any more): each waits with its session, merged; a purged session's are removed from the server.
		const puts = pulled.map((p, i): SyncDocRow => {
			const entry = known[i];
			if (purged) return { id: ids[i], kind: 'message', session_id: p.doc.session_id, position: p.doc.position, rev: p.rev, edit: nextEdit(ctx), dirty: 1, refused: 0, purge: 1 };
			const held = entry?.held ? (entry.doc as MessageDoc) : undefined;
			const doc = held ? mergeMessageDocs(held, p.doc) : p.doc;
			return { id: ids[i], kind: 'message', session_id: p.doc.session_id, position: p.doc.position, rev: p.rev, edit: entry?.edit ?? nextEdit(ctx), dirty: sameMessage(doc, p.doc) && !p.losers?.length ? 0 : 1, refused: 0, held: 1, doc, ...(p.losers?.length ? { losers: p.losers } : {}) };
		});
		await db.sync_docs.bulkPut(puts);
		return;
	}
	const session = state.row!;
	// Held ones come with it now (their session arrived, or came back); the session's rows are read
	// alongside, once: those the arrivals meet, where new ones go, and what its conversation is after.
	const [known, entries, rows] = await Promise.all([
		readEntries(db, ids),
		withHeld ? db.sync_docs.where('session_id').equals(session.id).toArray() : [],
		readSessionRows(db, session.id)
	]);
	const held = entries.filter((row) => row.kind === 'message' && row.held === 1 && !(row.doc as MessageDoc | undefined)?.removed);
	const pulledIds = new Set(ids);
	const heldArrivals = held.filter((row) => !pulledIds.has(row.id));
	const arrivals: Array<{ id: string; rev: string | null; doc: MessageDoc; entry: SyncDocRow | undefined; losers?: string[]; legacy?: Pulled<'message'>['legacy'] }> = [
		...heldArrivals.map((row) => ({ id: row.id, rev: row.rev, doc: row.doc as MessageDoc, entry: row })),
		...pulled.map((p, i) => ({ id: ids[i], rev: p.rev, doc: p.doc, entry: known[i], losers: p.losers, legacy: p.legacy }))
	];
	const positions = new Set(arrivals.map((arrival) => arrival.doc.position));
	const existing = rows.filter((row) => positions.has(row.position));
	const rowOf = new Map(existing.map((row) => [row.position, row]));
	// Which of the session's Blobs are here matters only to documents that name some.
	const [blobs, blobKeys] = await Promise.all([
		readBlobRows(db, session.id, existing),
		arrivals.some((arrival) => arrival.doc.fields.blobs?.length) ? db.blobs.where('[session_id+id]').between([session.id, Dexie.minKey], [session.id, Dexie.maxKey]).primaryKeys() : []
	]);
	const here = new Set(blobKeys.map((key) => key[1]));
	const puts: SyncDocRow[] = [];
	const changed: MessageRow[] = [];
	const arriving: ArrivingRow[] = [];
	const removed: MessageRow[] = [];
	const covers: Array<{ id: string; positions: string[] }> = [];
	for (const arrival of arrivals) {
		const row = rowOf.get(arrival.doc.position);
		if (row?.status === 'streaming') continue;
		const mine = row ? localDocOf(ctx, row, arrival.entry, blobs) : arrival.entry?.held ? (arrival.entry.doc as MessageDoc) : undefined;
		const doc = mine ? mergeMessageDocs(mine, arrival.doc) : arrival.doc;
		const dirty = arrival.rev === null || !sameMessage(doc, arrival.doc) || (arrival.losers?.length ?? 0) > 0 ? 1 : 0;
		const entryChanged = !mine || !sameMessage(doc, mine);
		const base = { id: arrival.id, kind: 'message' as const, session_id: session.id, position: arrival.doc.position, rev: arrival.rev, edit: entryChanged ? nextEdit(ctx) : (arrival.entry?.edit ?? nextEdit(ctx)), dirty: dirty as 0 | 1, refused: 0 as const, ...(arrival.losers?.length ? { losers: arrival.losers } : {}) };
		if (doc.removed) {
			puts.push({ ...base, held: 1, doc });
			if (row) removed.push(row);
			continue;
		}
		puts.push({ ...base, clocks: { clock: doc.clock, clocks: doc.clocks }, sums: digestsOf(doc.fields) });
		if (arrival.legacy?.covers) covers.push({ id: doc.fields.compaction?.id ?? doc.fields.id, positions: arrival.legacy.covers });
		if (row && !entryChanged && row.blobs_not_synced === undefined) continue;
		const next = withBlobNote(rowFrom(doc, row) as MessageRow, doc.fields.blobs, here, ctx.limit);
		if (row && next.rank === row.rank) changed.push({ ...next, seq: row.seq });
		else {
			if (row) removed.push(row);
			arriving.push(next);
		}
	}
	if (removed.length) {
		await db.messages.bulkDelete(removed.map((row): [string, number] => [session.id, row.seq]));
		const unused = await blobsNoLongerShown(db, session.id, removed.filter((row) => !arriving.some((next) => next.position === row.position)));
		await db.blobs.bulkDelete(unused.map((id): [string, string] => [session.id, id]));
	}
	const gone = new Set(removed.map((row) => row.seq));
	const written = await writeRows(ctx, session, rows.filter((row) => !gone.has(row.seq)), changed, arriving.map((row) => ({ ...row, seq: undefined })));
	if (!written.written) {
		// Placing them needs the session renumbered while a tab works on it: they wait, held, for the next pass.
		await db.sync_docs.bulkPut(puts.map((entry): SyncDocRow => (entry.held ? entry : { ...entry, held: 1, doc: arrivals.find((a) => a.id === entry.id)!.doc })));
		return;
	}
	await db.sync_docs.bulkPut(puts);
	// A compaction of format 1 listed what it covered; each covered row now says so itself.
	for (const cover of covers) {
		const rows = await db.messages.where('[session_id+position]').anyOf(cover.positions.map((position) => [session.id, position])).toArray();
		const fresh = rows.filter((row) => row.compacted_by === null).map((row) => ({ ...row, compacted_by: cover.id }));
		await db.messages.bulkPut(fresh);
		const entries = await db.sync_docs.bulkGet(fresh.map((row) => messageDocId(session.id, row.position)));
		await db.sync_docs.bulkPut(entries.flatMap((entry, i) => (entry?.sums ? [{ ...entry, sums: digestsOf(fieldsOfRow(fresh[i])) }] : [])));
	}
	state.nextSeq = Math.max(state.nextSeq, written.nextSeq);
	state.touched = true;
	// Rows the covers changed are read again when the session settles.
	state.rows = covers.length ? undefined : written.rows;
}

/** A Blob's document: its bytes kept when they came and were what their type says. */
async function applyBlob(ctx: SyncContext, pulled: Pulled<'blob'>, state: SessionState, row: BlobRow | undefined): Promise<void> {
	const { db } = ctx;
	const id = blobDocId(pulled.session_id, pulled.blob_id);
	if (sessionDocOf(state.entry)?.purged_at != null) {
		await db.sync_docs.put({ id, kind: 'blob', session_id: pulled.session_id, rev: pulled.rev, edit: nextEdit(ctx), dirty: 1, refused: 0, purge: 1 });
		return;
	}
	const refused = pulled.received !== undefined && !row;
	// For a session in "Recently deleted", the file waits with it there (Restore brings it back with the rest).
	if (row && (state.row || !(await addBlobToTrash(db, row)))) await putArrivedBlobs(db, [row]);
	await db.sync_docs.put({ id, kind: 'blob', session_id: pulled.session_id, rev: pulled.rev, edit: nextEdit(ctx), dirty: 0, refused: refused ? 1 : 0 });
	if (!state.row) return;
	// The messages that waited for it show it now (or say it was refused): read again when the session settles.
	state.rows = undefined;
	const waiting = await db.messages.where('[session_id+seq]').between([pulled.session_id, Dexie.minKey], [pulled.session_id, Dexie.maxKey]).filter((message) => message.blobs_not_synced?.some((entry) => entry.id === pulled.blob_id) ?? false).toArray();
	const notes = waiting.map((message) => {
		const rest = (message.blobs_not_synced ?? []).flatMap((entry) => (entry.id !== pulled.blob_id ? [entry] : row ? [] : [{ ...entry, reason: 'refused' as const }]));
		const { blobs_not_synced: _, ...bare } = message;
		return rest.length ? { ...bare, blobs_not_synced: rest } : bare;
	});
	await db.messages.bulkPut(notes);
}

/** A document the server deleted that this app never deletes there: brought back from this device's copy, unless its session was purged. */
async function applyDeleted(ctx: SyncContext, pulled: Deleted & { id: Exclude<DocumentId, { kind: 'prompt' | 'assistant' }> }, state: SessionState): Promise<void> {
	const { db } = ctx;
	const id = pulled.id.kind === 'session' ? sessionDocId(pulled.id.session_id) : pulled.id.kind === 'message' ? messageDocId(pulled.id.session_id, pulled.id.position) : blobDocId(pulled.id.session_id, pulled.id.blob_id);
	const entry = await db.sync_docs.get(id);
	if (!entry) return;
	const purged = sessionDocOf(state.entry)?.purged_at != null;
	if (entry.purge || (purged && entry.kind !== 'session')) await db.sync_docs.delete(id);
	else await db.sync_docs.put({ ...entry, rev: pulled.rev, edit: nextEdit(ctx), dirty: 1, refused: 0 });
}
