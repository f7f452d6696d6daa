// The upgrade to schema 12: every session's rows get their rank and branch (legacy-conversation.ts),
// and sync's record of each document is kept in the shape sync reads now: a session's last
// merged document and every revision, so nothing is sent twice and no deletion is forgotten; its
// checkpoint goes, so the next sync reads the server from the start and sends everything again
// in the new document format (merging with what is there).
import Dexie, { type Transaction } from 'dexie';
import { adoptLegacyRows } from './legacy-conversation';
import type { MessageRow, SessionRow, SyncDocRow } from './schema';

type OldSyncDoc = Omit<SyncDocRow, 'kind'> & { kind: string; seen?: string };

export async function adoptLegacyProfile(tx: Transaction): Promise<void> {
	const sessions = tx.table<SessionRow, string>('sessions');
	const messages = tx.table<MessageRow, [string, number]>('messages');
	for (const session of await sessions.toArray()) {
		const rows = await messages.where('[session_id+seq]').between([session.id, Dexie.minKey], [session.id, Dexie.maxKey]).toArray();
		const adopted = adoptLegacyRows(session, rows);
		if (adopted.rows.length) await messages.bulkPut(adopted.rows);
		const { versions: _versions, tip: _tip, ...rest } = session;
		await sessions.put({ ...rest, ...withoutUndefined(adopted.state), ...(adopted.version_shown ? { version_shown: adopted.version_shown } : {}) });
	}
	// Rows whose session row is gone (a ghost sweep removes them): where their positions put them.
	await messages
		.filter((row) => row.rank === undefined)
		.modify((row: MessageRow) => {
			row.rank = row.position;
		});
	const docs = tx.table<OldSyncDoc, string>('sync_docs');
	const known = (row: OldSyncDoc) => row.kind === 'session' || ((row.kind === 'message' || row.kind === 'message-removed') && row.rev !== null);
	await docs.filter((row) => !known(row)).delete();
	await docs.toCollection().modify((row: OldSyncDoc) => {
		const { seen: _seen, ...rest } = row;
		if (row.kind === 'session') Object.assign(row, { ...rest, legacy: 1, dirty: 1, refused: 0 });
		else {
			// A message's revision, to write the new format over; its row holds the rest.
			for (const key of Object.keys(row)) delete (row as unknown as Record<string, unknown>)[key];
			Object.assign(row, { id: rest.id, kind: 'message', session_id: rest.session_id, position: rest.position, rev: rest.rev, edit: rest.edit, dirty: 0, refused: 0, legacy: 1 });
		}
		delete (row as { seen?: string }).seen;
	});
	await tx.table('sync_meta').delete('checkpoint');
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
