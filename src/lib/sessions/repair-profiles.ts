// "Repair profiles": sessions stored in this profile's database but recorded as belonging to
// another existing profile are copied, with their messages and request frames, into that profile's database
// (quietly: there they are adopted, not new), then the misfiled copies are deleted here as one
// `profile_repair` operation, announced in this profile's hook bus.
import type { PalimpsestDb } from '../db/database';
import { adoptSessions, readMessagesWithFrames, type SessionCopy } from '../db/copy-verbs';
import { listMisfiledSessions } from '../db/maintenance-verbs';
import { removeChosenSessions } from './delete-sessions';
import { withMaintenanceLock } from './maintenance-lock';
import type { SessionContext } from './session-context';
import { busySessions } from './work-lock';

export interface RepairReport {
	/** Sessions moved, by the profile they went to. */
	moved: Record<string, number>;
	/** Misfiled sessions left for now because a tab works on them or shows them. */
	busy: number;
	/** Sessions naming a profile that does not exist: left where they are. */
	unknown: number;
}

/**
 * Repairs the database of `ctx.profile`. `profiles` lists the existing profile names;
 * `openDb` opens another profile's database (closed again when done). Null when another tab
 * is running maintenance.
 */
export async function repairProfiles(
	ctx: SessionContext,
	profiles: readonly string[],
	openDb: (profile: string) => PalimpsestDb
): Promise<RepairReport | null> {
	const ran = await withMaintenanceLock(ctx.profile, async () => {
		const report: RepairReport = { moved: {}, busy: 0, unknown: 0 };
		const { working, open } = await busySessions(ctx.profile);
		const byProfile = new Map<string, SessionCopy['row'][]>();
		for (const row of await listMisfiledSessions(ctx.db, ctx.profile)) {
			if (!profiles.includes(row.profile)) report.unknown++;
			else if (working.has(row.id) || open.has(row.id)) report.busy++;
			else byProfile.set(row.profile, [...(byProfile.get(row.profile) ?? []), row]);
		}
		const moved: string[] = [];
		for (const [profile, rows] of byProfile) {
			const copies: SessionCopy[] = [];
			for (const row of rows) copies.push({ row, ...(await readMessagesWithFrames(ctx.db, row.id)) });
			const target = openDb(profile);
			try {
				await adoptSessions(target, copies);
			} finally {
				target.close();
			}
			moved.push(...rows.map((row) => row.id));
			report.moved[profile] = rows.length;
		}
		if (moved.length) await removeChosenSessions(ctx, 'profile_repair', moved);
		return report;
	});
	return ran?.value ?? null;
}

/** A short notice of what a repair did. */
export function describeRepair(report: RepairReport): string {
	const moves = Object.entries(report.moved).map(([profile, n]) => `${n} ${n === 1 ? 'session' : 'sessions'} to “${profile}”`);
	const parts = [moves.length ? `Moved ${moves.join(', ')}.` : 'Every session is in its own profile.'];
	if (report.busy) parts.push(`${report.busy} in use ${report.busy === 1 ? 'was' : 'were'} left for later.`);
	if (report.unknown) parts.push(`${report.unknown} ${report.unknown === 1 ? 'names a profile' : 'name profiles'} that no longer ${report.unknown === 1 ? 'exists' : 'exist'} and stayed here.`);
	return parts.join(' ');
}
