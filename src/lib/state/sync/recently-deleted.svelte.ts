// "Recently deleted" as the page shows it: the sessions another device or the sync server
// deleted, kept on this device for a while, live while the page is open, and Restore. Loads with
// its page only.
import { SvelteSet } from 'svelte/reactivity';
import { watch } from '../../db/watch';
import { listRecentlyDeleted, restoreDeletedSession, type DeletedSession } from '../../sessions/restore-deleted';
import type { SessionContext } from '../../sessions/session-context';

export type { DeletedSession };

export class RecentlyDeletedState {
	sessions = $state.raw<DeletedSession[]>([]);
	loaded = $state(false);
	/** Sessions being restored now (their Restore is disabled meanwhile). */
	restoring = new SvelteSet<string>();
	readonly #ctx: () => SessionContext;

	constructor(ctx: () => SessionContext) {
		this.#ctx = ctx;
	}

	/** Keeps `sessions` live while the page shows them; returns the undo. */
	follow(): () => void {
		return watch(
			() => listRecentlyDeleted(this.#ctx()),
			(sessions) => {
				this.sessions = sessions;
				this.loaded = true;
			}
		);
	}

	/** Restore: the session comes back here and, once synced, on every device. False when it was no longer kept. */
	async restore(sessionId: string): Promise<boolean> {
		this.restoring.add(sessionId);
		try {
			return await restoreDeletedSession(this.#ctx(), sessionId);
		} finally {
			this.restoring.delete(sessionId);
		}
	}
}
