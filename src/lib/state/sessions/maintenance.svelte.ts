// Session maintenance for the UI: a pass shortly after start-up and then periodically (in one
// tab at a time), "Clean up now" and "Repair profiles" in Settings, and the short notice of
// what was removed; each pass also ends the stay of sessions in "Recently deleted" past its
// days, with sync on or off. The sweeps load with the first pass, after the first screen.
import { openProfileDb } from '../../db/database';
import { listProfileNames } from '../../db/list-profile-names';
import { MetaDb } from '../../db/meta-db';
import type { Services } from '../app/services';
import { describeError } from '../shared/turn-helpers';

/** After start-up, once the first screen is drawn and the open session holds its lock. */
const FIRST_PASS_MS = 3000;
const EVERY_MS = 10 * 60 * 1000;

export class MaintenanceState {
	/** What the last automatic pass removed, until dismissed; '' when there is nothing to say. */
	notice = $state('');
	/** The result of the last "Clean up now" or "Repair profiles", for Settings. */
	result = $state('');
	running = $state(false);
	#services: Services;
	#keep: () => string | null;
	#queue: Promise<void> = Promise.resolve();

	/** `keep` names the session this tab shows (its lock may not be taken yet). */
	constructor(services: Services, keep: () => string | null) {
		this.#services = services;
		this.#keep = keep;
	}

	start(): () => void {
		let stopped = false;
		let timer: ReturnType<typeof setTimeout>;
		const schedule = (ms: number) => {
			timer = setTimeout(async () => {
				await this.#pass(false);
				if (!stopped) schedule(EVERY_MS);
			}, ms);
		};
		schedule(FIRST_PASS_MS);
		return () => {
			stopped = true;
			clearTimeout(timer);
		};
	}

	dismiss(): void {
		this.notice = '';
	}

	/** "Clean up now": one pass at once; the result is shown in Settings. */
	async cleanUpNow(): Promise<void> {
		this.result = 'Cleaning up…';
		await this.#pass(true);
	}

	async repairProfiles(): Promise<void> {
		this.running = true;
		this.result = 'Repairing…';
		try {
			const { describeRepair, repairProfiles } = await import('../../sessions/repair-profiles');
			const meta = new MetaDb();
			const profiles = await listProfileNames(meta).finally(() => meta.close());
			const report = await repairProfiles(this.#services.sessionContext(), profiles, (name) => openProfileDb(name));
			this.result = report ? describeRepair(report) : 'Another tab is cleaning up sessions right now. Try again in a moment.';
		} catch (error) {
			this.result = `Could not repair profiles: ${describeError(error)}`;
		} finally {
			this.running = false;
		}
	}

	/** Passes run one after another: "Clean up now" during an automatic pass waits for it, then runs. */
	#pass(asked: boolean): Promise<void> {
		const next = this.#queue.then(() => this.#runPass(asked));
		this.#queue = next.catch(() => {});
		return next;
	}

	async #runPass(asked: boolean): Promise<void> {
		const settings = this.#services.settings;
		// Retention must not run on default values before the stored settings arrive.
		if (!settings.loaded) {
			if (asked) this.result = 'Settings are still loading. Try again in a moment.';
			return;
		}
		this.running = true;
		try {
			const [{ describeMaintenance, runMaintenance }, { purgeDeletedSessions }] = await Promise.all([import('../../sessions/run-maintenance'), import('../sync/purge-deleted')]);
			const keep = this.#keep();
			const ctx = this.#services.sessionContext();
			const report = await runMaintenance(ctx, {
				retentionDays: Number(settings.get('sessions.retention_days')),
				autoArchiveDays: Number(settings.get('sessions.auto_archive_days')),
				keep: keep ? [keep] : []
			});
			await purgeDeletedSessions(ctx, Number(settings.get('sync.keep_deleted_days')));
			const text = report ? describeMaintenance(report) : '';
			if (text) this.notice = text;
			if (asked) this.result = report ? text || 'Nothing to clean up.' : 'Another tab is cleaning up sessions right now.';
		} catch (error) {
			if (asked) this.result = `Could not clean up: ${describeError(error)}`;
			else console.warn('Session maintenance failed', error);
		} finally {
			this.running = false;
		}
	}
}
