// Saved prompts in a sync transaction: this device's edits (from the outbox) taken into their
// documents, and documents that arrived merged with this device's and written to the prompts
// table. A prompt deleted anywhere is removed; a new one past the most a profile keeps waits,
// merged, until there is room. Nothing here fires a hook.
import { MAX_PROMPTS, type SyncDocRow } from '../db/schema';
import { nextEdit, type SyncContext } from './dexie-context';
import { promptDocId } from './document-ids';
import { mergePromptDocs, promptRowOf, samePrompt, stampPrompt, type PromptDoc } from './prompt-document';
import type { PulledDoc } from './sync-store';

type PulledPrompt = Extract<PulledDoc, { kind: 'prompt' }>;

/** A prompt entry's document, if it has one. */
export function promptDocOf(entry: SyncDocRow | undefined): PromptDoc | undefined {
	return entry?.kind === 'prompt' && entry.doc ? (entry.doc as PromptDoc) : undefined;
}

/** Takes this device's changes to these prompts (outbox `prompt:<id>` entries, with their times) into their documents. */
export async function stampPrompts(ctx: SyncContext, changes: ReadonlyArray<{ promptId: string; at: number }>): Promise<void> {
	if (!changes.length) return;
	const { db } = ctx;
	const [rows, entries] = await Promise.all([db.prompts.bulkGet(changes.map((c) => c.promptId)), db.sync_docs.bulkGet(changes.map((c) => promptDocId(c.promptId)))]);
	const puts: SyncDocRow[] = [];
	changes.forEach(({ promptId, at }, i) => {
		const previous = promptDocOf(entries[i]);
		const doc = stampPrompt(promptId, rows[i] ?? null, previous, { at, random: ctx.random });
		if (!doc || (previous && samePrompt(doc, previous))) return;
		puts.push({ id: promptDocId(promptId), kind: 'prompt', session_id: '', rev: entries[i]?.rev ?? null, edit: nextEdit(ctx), dirty: 1, refused: 0, doc });
	});
	await db.sync_docs.bulkPut(puts);
}

/** Applies prompt documents that arrived: each merged with this device's, its row written or removed. */
export async function applyPrompts(ctx: SyncContext, pulled: readonly PulledPrompt[]): Promise<void> {
	if (!pulled.length) return;
	const { db } = ctx;
	let count = await db.prompts.count();
	for (const arrival of pulled) {
		const id = promptDocId(arrival.doc.prompt_id);
		const [entry, row] = await Promise.all([db.sync_docs.get(id), db.prompts.get(arrival.doc.prompt_id)]);
		const local = promptDocOf(entry);
		const doc = local ? mergePromptDocs(local, arrival.doc) : arrival.doc;
		if (doc.deleted_at !== null) {
			if (row) {
				await db.prompts.delete(arrival.doc.prompt_id);
				count -= 1;
			}
		} else if (row || count < MAX_PROMPTS) {
			const next = promptRowOf(doc);
			if (JSON.stringify(next) !== JSON.stringify(row)) await db.prompts.put(next);
			if (!row) count += 1;
		}
		const changed = !local || !samePrompt(doc, local);
		await db.sync_docs.put({
			id,
			kind: 'prompt',
			session_id: '',
			rev: arrival.rev,
			edit: changed ? nextEdit(ctx) : (entry?.edit ?? nextEdit(ctx)),
			dirty: samePrompt(doc, arrival.doc) && !arrival.losers?.length ? 0 : 1,
			refused: changed ? 0 : (entry?.refused ?? 0),
			doc,
			...(arrival.losers?.length ? { losers: arrival.losers } : {})
		});
	}
}

/** The server deleted a prompt's document (this app never does): this device's copy goes to it again. */
export async function applyDeletedPrompt(ctx: SyncContext, promptId: string, rev: string): Promise<void> {
	const id = promptDocId(promptId);
	const entry = await ctx.db.sync_docs.get(id);
	if (entry) await ctx.db.sync_docs.put({ ...entry, rev, edit: nextEdit(ctx), dirty: 1, refused: 0 });
}
