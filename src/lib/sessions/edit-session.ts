// Small changes the user makes to a session row: its title, its pin, its model.
import { renameSession as writeTitle, setPinned as writePinned, updateSession } from '../db/session-verbs';
import type { SessionRow } from '../db/schema';
import type { SessionContext } from './session-context';

/** Returns the title as stored (control characters left out). */
export function renameSession(ctx: SessionContext, id: string, title: string): Promise<string> {
	return writeTitle(ctx.db, id, title);
}

export function setPinned(ctx: SessionContext, id: string, pinned: boolean): Promise<void> {
	return writePinned(ctx.db, id, pinned);
}

/**
 * The provider and model the session's next turns use, with what the provider is called
 * (`named`, see SessionRow.named_provider; none for the offline model).
 */
export async function setSessionModel(ctx: SessionContext, id: string, provider: string, model: string, named?: SessionRow['named_provider']): Promise<void> {
	// An undefined field is removed: no name of an earlier provider stays behind.
	await updateSession(ctx.db, id, { provider, model, named_provider: named });
}
