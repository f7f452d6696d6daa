// Assistants in a sync transaction: this device's edits (from the outbox) taken into their
// documents, and documents that arrived merged with this device's and written to the assistants
// table. An assistant deleted anywhere is removed; a new one past the most a profile keeps waits,
// merged, until there is room. Nothing here fires a hook.
import { ASSISTANT_LIMITS, type SyncDocRow } from '../db/schema';
import { nextEdit, type SyncContext } from './dexie-context';
import { assistantDocId, assistantRowOf, mergeAssistantDocs, sameAssistant, stampAssistant, type AssistantDoc } from './assistant-document';
import type { PulledDoc } from './sync-store';

type PulledAssistant = Extract<PulledDoc, { kind: 'assistant' }>;

/** An assistant entry's document, if it has one. */
export function assistantDocOf(entry: SyncDocRow | undefined): AssistantDoc | undefined {
	return entry?.kind === 'assistant' && entry.doc ? (entry.doc as AssistantDoc) : undefined;
}

/** Takes this device's changes to these assistants (outbox `assistant:<id>` entries, with their times) into their documents. */
export async function stampAssistants(ctx: SyncContext, changes: ReadonlyArray<{ assistantId: string; at: number }>): Promise<void> {
	if (!changes.length) return;
	const { db } = ctx;
	const [rows, entries] = await Promise.all([db.assistants.bulkGet(changes.map((c) => c.assistantId)), db.sync_docs.bulkGet(changes.map((c) => assistantDocId(c.assistantId)))]);
	const puts: SyncDocRow[] = [];
	changes.forEach(({ assistantId, at }, i) => {
		const previous = assistantDocOf(entries[i]);
		const doc = stampAssistant(assistantId, rows[i] ?? null, previous, { at, random: ctx.random });
		if (!doc || (previous && sameAssistant(doc, previous))) return;
		puts.push({ id: assistantDocId(assistantId), kind: 'assistant', session_id: '', rev: entries[i]?.rev ?? null, edit: nextEdit(ctx), dirty: 1, refused: 0, doc });
	});
	await db.sync_docs.bulkPut(puts);
}

/** Applies assistant documents that arrived: each merged with this device's, its row written or removed. */
export async function applyAssistants(ctx: SyncContext, pulled: readonly PulledAssistant[]): Promise<void> {
	if (!pulled.length) return;
	const { db } = ctx;
	let count = await db.assistants.count();
	for (const arrival of pulled) {
		const id = assistantDocId(arrival.doc.assistant_id);
		const [entry, row] = await Promise.all([db.sync_docs.get(id), db.assistants.get(arrival.doc.assistant_id)]);
		const local = assistantDocOf(entry);
		const doc = local ? mergeAssistantDocs(local, arrival.doc) : arrival.doc;
		if (doc.deleted_at !== null) {
			if (row) {
				await db.assistants.delete(arrival.doc.assistant_id);
				count -= 1;
			}
		} else if (row || count < ASSISTANT_LIMITS.assistants) {
			const next = assistantRowOf(doc);
			if (JSON.stringify(next) !== JSON.stringify(row)) await db.assistants.put(next);
			if (!row) count += 1;
		}
		const changed = !local || !sameAssistant(doc, local);
		await db.sync_docs.put({
			id,
			kind: 'assistant',
			session_id: '',
			rev: arrival.rev,
			edit: changed ? nextEdit(ctx) : (entry?.edit ?? nextEdit(ctx)),
			dirty: sameAssistant(doc, arrival.doc) && !arrival.losers?.length ? 0 : 1,
			refused: changed ? 0 : (entry?.refused ?? 0),
			doc,
			...(arrival.losers?.length ? { losers: arrival.losers } : {})
		});
	}
}

/** The server deleted an assistant's document (this app never does): this device's copy goes to it again. */
export async function applyDeletedAssistant(ctx: SyncContext, assistantId: string, rev: string): Promise<void> {
	const id = assistantDocId(assistantId);
	const entry = await ctx.db.sync_docs.get(id);
	if (entry) await ctx.db.sync_docs.put({ ...entry, rev, edit: nextEdit(ctx), dirty: 1, refused: 0 });
}
