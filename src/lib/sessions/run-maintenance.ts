// One maintenance pass (at start-up, then periodically, or "Clean up now"): ghost rows,
// empty ended sessions, retention, auto-archive and old receipts, in one tab at a time and
// never on a session that some tab works on or shows.
import { deleteReceiptsBefore } from '../db/deletion-verbs';
import { withMaintenanceLock } from './maintenance-lock';
import { nowOf, type SessionContext } from './session-context';
import { autoArchiveIdleSessions, DAY_MS, pruneExpiredSessions, pruneGhosts, sweepEmptySessions } from './sweep-sessions';
import { busySessions } from './work-lock';

export interface MaintenanceSettings {
	/** `sessions.retention_days`: 0 turns pruning off. */
	retentionDays: number;
	/** `sessions.auto_archive_days`: 0 turns auto-archive off. */
	autoArchiveDays: number;
	/** Sessions this tab shows or is about to show, whatever the locks say. */
	keep?: readonly string[];
}

export interface MaintenanceReport {
	/** Empty untitled rows left by gone tabs, and sessions whose leftover messages went. */
	ghosts: number;
	empty: number;
	pruned: number;
	archived: number;
}

/** Receipts are kept this long: long enough for any retry or replay of an operation. */
export const RECEIPT_DAYS = 30;

/** The performance measure of each pass that ran (benchmarks read it). */
export const MAINTENANCE_MEASURE = 'palimpsest:maintenance-pass';

/** Runs every sweep once; null when another tab is already running maintenance. */
export async function runMaintenance(ctx: SessionContext, settings: MaintenanceSettings): Promise<MaintenanceReport | null> {
	const ran = await withMaintenanceLock(ctx.profile, async () => {
		const started = performance.now();
		// Asked again before each step: a tab may have opened a session meanwhile.
		const busy = async () => {
			const { working, open } = await busySessions(ctx.profile);
			return new Set([...working, ...open, ...(settings.keep ?? [])]);
		};
		const ghosts = (await pruneGhosts(ctx, await busy())).ids.length;
		const empty = (await sweepEmptySessions(ctx, await busy())).ids.length;
		const pruned = (await pruneExpiredSessions(ctx, settings.retentionDays, await busy())).ids.length;
		const archived = (await autoArchiveIdleSessions(ctx, settings.autoArchiveDays, await busy())).length;
		await deleteReceiptsBefore(ctx.db, nowOf(ctx) - RECEIPT_DAYS * DAY_MS);
		performance.measure(MAINTENANCE_MEASURE, { start: started });
		return { ghosts, empty, pruned, archived };
	});
	return ran?.value ?? null;
}

/** A short notice of what a pass did; '' when it did nothing worth saying. */
export function describeMaintenance(report: MaintenanceReport): string {
	const parts: string[] = [];
	const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
	if (report.empty) parts.push(count(report.empty, 'empty session', 'empty sessions'));
	if (report.pruned) parts.push(`${count(report.pruned, 'session', 'sessions')} past the retention period`);
	if (report.ghosts) parts.push(count(report.ghosts, 'abandoned new session', 'abandoned new sessions'));
	const removed = parts.length ? `Removed ${joinList(parts)}.` : '';
	const archived = report.archived ? `Archived ${count(report.archived, 'idle session', 'idle sessions')}.` : '';
	return [removed, archived].filter(Boolean).join(' ');
}

function joinList(parts: string[]): string {
	return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
