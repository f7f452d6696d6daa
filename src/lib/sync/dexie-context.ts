// What the parts of the Dexie sync store share inside one transaction: the database, this
// device's clock and random source, the settings read before the transaction began, and the
// counter that orders this device's edits to send.
import type { PalimpsestDb } from '../db/database';
import type { SessionRow, SyncDocRow } from '../db/schema';
import { legacySessionDoc } from './legacy-session';
import type { MessageClocks } from './stamp-message';
import type { RandomBytes } from './position';
import { matchProvider, type ProviderRef } from './provider-ref';
import { completeSessionDoc, type SessionDoc } from './session-document';

/** A provider of this device, as sync matches them. */
export interface LocalProvider {
	id: string;
	preset: string;
	base_url: string;
	name: string;
	/** The model set in its Settings entry. */
	model?: string;
}

export interface SyncContext {
	db: PalimpsestDb;
	now: number;
	random: RandomBytes;
	profile: string;
	/** Bytes: the largest Blob sent or taken. */
	limit: number;
	providers: readonly LocalProvider[];
	/** Sessions some tab works on now: their rows are not renumbered under them. */
	busy: ReadonlySet<string>;
	/** The last local edit number given. */
	edits: number;
	/** The last local edit number given before the transaction (nothing to write back while no edit was given). */
	editsBefore?: number;
}

const EDITS = 'edits';

/** Every table a sync transaction writes. */
export function syncTables(db: PalimpsestDb) {
	return [db.sessions, db.messages, db.blobs, db.settings, db.sync_docs, db.sync_meta, db.sync_outbox, db.sync_trash, db.prompts, db.assistants];
}

export async function readEdits(db: PalimpsestDb): Promise<number> {
	const row = await db.sync_meta.get(EDITS);
	return typeof row?.value === 'number' ? row.value : 0;
}

export async function writeEdits(ctx: SyncContext): Promise<void> {
	if (ctx.edits === ctx.editsBefore) return;
	await ctx.db.sync_meta.put({ key: EDITS, value: ctx.edits });
}

/** The next local edit number. */
export function nextEdit(ctx: SyncContext): number {
	return ++ctx.edits;
}

/** A session entry's document in today's shape (one kept from before is read as a format-1 document is). */
export function sessionDocOf(entry: SyncDocRow | undefined): SessionDoc | undefined {
	if (entry?.kind !== 'session' || !entry.doc) return undefined;
	return entry.legacy ? legacySessionDoc(entry.doc) : completeSessionDoc(entry.doc as SessionDoc);
}

/** A message entry's clocks (none for one known only by its revision). */
export function messageClocksOf(entry: SyncDocRow | undefined): MessageClocks | undefined {
	return entry?.kind === 'message' && entry.clocks ? (entry.clocks as MessageClocks) : undefined;
}

/** The server and model of a local provider, as another device matches them. */
export function providerRefOf(ctx: SyncContext, providerId: string): ProviderRef | null {
	const provider = ctx.providers.find((entry) => entry.id === providerId);
	return provider ? { preset: provider.preset, base_url: provider.base_url, name: provider.name } : null;
}

/** This device's provider for the one a session document names: matched by server, else its id as it came. */
export function localProviderOf(ctx: SyncContext, doc: SessionDoc): string {
	const ref = doc.fields.provider_ref;
	if (ctx.providers.some((entry) => entry.id === doc.fields.provider)) return doc.fields.provider;
	return (ref && matchProvider(ref, ctx.providers, doc.fields.model)?.id) ?? doc.fields.provider;
}

/** Whether a row's provider is what the document says, as this device names it. */
export function sameProvider(ctx: SyncContext, doc: SessionDoc, rowProvider: string): boolean {
	return localProviderOf(ctx, doc) === rowProvider;
}

export type { SessionRow };
