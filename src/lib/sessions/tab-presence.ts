// Which tabs are open: each holds a Web Lock named for it for as long as it lives, so a record
// left by a tab that closed can be told from one whose tab is still at work on it.
const PREFIX = 'palimpsest-tab:';

let id: string | null = null;

function locks(): LockManager | null {
	return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

/** This tab's id; the first call takes the lock that says it is open. */
export function thisTab(): string {
	if (id) return id;
	id = crypto.randomUUID();
	void locks()
		?.request(PREFIX + id, () => new Promise<never>(() => {}))
		.catch(() => {});
	return id;
}

/** True while the tab `tab` is open (without Web Locks, only this tab is known to be). */
export async function isTabOpen(tab: string): Promise<boolean> {
	if (tab === id) return true;
	const manager = locks();
	if (!manager) return false;
	const { held = [] } = await manager.query();
	return held.some((lock) => lock.name === PREFIX + tab);
}
