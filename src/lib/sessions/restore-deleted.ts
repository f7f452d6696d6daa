// "Recently deleted": the sessions another device (or the sync server) deleted, kept on this
// device for a while, and Restore. A restored session is a write of this device like any other,
// so sync sends it and every device gets it back; no hook fires for it, as none fired here for
// its deletion (plugins hear of a deletion only on the device that made it).
import { listRecentlyDeleted as listKept, restoreFromTrash, type DeletedSession } from '../db/trash-verbs';
import type { SessionContext } from './session-context';

export type { DeletedSession };

export function listRecentlyDeleted(ctx: SessionContext): Promise<DeletedSession[]> {
	return listKept(ctx.db);
}

/** Brings the session back here with its messages and files; false when it is no longer kept (restored meanwhile, or deleted for good). */
export function restoreDeletedSession(ctx: SessionContext, sessionId: string): Promise<boolean> {
	return restoreFromTrash(ctx.db, sessionId);
}
