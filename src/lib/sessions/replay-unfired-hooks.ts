// At start-up: a hook that a closed tab committed but never dispatched (the tab closed between
// the commit and the dispatch) fires now, once, in this tab. Only commits made on this device
// owe hooks: what sync brings from another device writes no receipt.
import { claimUnfired, listUnfired } from '../db/unfired-hook-verbs';
import type { PalimpsestDb } from '../db/database';
import type { HookBus } from '../hooks/hook-bus';
import { isTabOpen } from './tab-presence';

/** Fires the hooks closed tabs left owed; returns how many. A tab still open dispatches its own. */
export async function replayUnfiredHooks(db: PalimpsestDb, hooks: Pick<HookBus, 'notify'>, tabOpen: (tab: string) => Promise<boolean> = isTabOpen): Promise<number> {
	const owed = await listUnfired(db);
	const orphaned: string[] = [];
	for (const row of owed) if (!(await tabOpen(row.unfired!.tab))) orphaned.push(row.op_id);
	if (!orphaned.length) return 0;
	const claimed = await claimUnfired(db, orphaned);
	for (const owedHook of claimed) {
		if (owedHook.hook === 'on_session_delete') void hooks.notify('on_session_delete', owedHook.payload);
		else void hooks.notify('post_compaction', owedHook.payload);
	}
	return claimed.length;
}
