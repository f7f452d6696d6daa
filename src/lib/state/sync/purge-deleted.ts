// "Recently deleted" keeps a session deleted elsewhere for the days Settings → Sync says; past
// them it is deleted for good at each maintenance pass, whether sync runs or not (sync sends the
// purge when it next runs). Loads with the maintenance pass, not the page.
import type { SessionContext } from '../../sessions/session-context';
import { nowOf } from '../../sessions/session-context';

export async function purgeDeletedSessions(ctx: SessionContext, keepDeletedDays: number): Promise<void> {
	const { createSyncStore } = await import('../../sync/dexie-sync-store');
	await createSyncStore(ctx.db, { profile: ctx.profile, now: () => nowOf(ctx), keepDeletedDays: () => keepDeletedDays }).purgeExpired();
}
