// The actions of the start-up failure page: save what is readable to a file, and start fresh
// without destroying anything. Starting fresh after a profile's database failed makes a new,
// empty profile the active one and leaves the old database where it is (listed in Settings →
// Profile, to switch back to or delete); after the list of profiles failed, it rebuilds the list
// from the profile databases the browser still has, touching no session.
import { DEFAULT_PROFILE, MetaDb } from '../../db/meta-db';
import { createProfile, listProfiles, setActiveProfile } from '../../db/profile-verbs';
import { profileLabel } from '../../db/profile-id';
import { rebuildProfileList } from '../../db/rebuild-profile-list';
import { rescueExport } from '../../sessions/rescue-export';
import { downloadFile } from '../shared/download-file';
import type { StartupFailure } from './startup-failure';

const FRESH_NAME = 'Fresh start';

/** The first free "Fresh start", "Fresh start 2", … among the profile labels. */
export function freshProfileName(labels: readonly string[]): string {
	const taken = labels.map((l) => l.toLocaleLowerCase());
	for (let n = 1; ; n++) {
		const name = n === 1 ? FRESH_NAME : `${FRESH_NAME} ${n}`;
		if (!taken.includes(name.toLocaleLowerCase())) return name;
	}
}

export class StartupRescue {
	busy = $state<'export' | 'fresh' | null>(null);
	outcome = $state<{ ok: boolean; text: string } | null>(null);
	readonly failure: StartupFailure;
	#reload: () => void;

	// A fresh start opens the app at its start page: a session address from before means nothing there.
	constructor(failure: StartupFailure, reload: () => void = () => location.assign('/')) {
		this.failure = failure;
		this.#reload = reload;
	}

	/** What "Start fresh" does, said before it is done. */
	get freshConsequence(): string {
		if (this.failure.database === 'meta') {
			return 'The list of your profiles will be made again from the profile data this browser still has; the default profile becomes active. No session is deleted or changed. Profile names other than the default one are replaced by their ids, and plugin commands see a new local user id.';
		}
		const label = this.failure.profile === DEFAULT_PROFILE ? 'Default' : (this.failure.profile ?? 'this profile');
		return `Palimpsest will open a new, empty profile. Nothing is deleted: the data that could not be opened stays in this browser as the profile “${label}”, listed in Settings → Profile, where you can switch back to it (after updating Palimpsest, for example) or delete it.`;
	}

	async exportReadable(): Promise<void> {
		if (this.busy) return;
		this.busy = 'export';
		this.outcome = null;
		try {
			const result = await rescueExport(this.failure.profile ?? DEFAULT_PROFILE);
			if (result.sessions === 0) {
				this.outcome = { ok: false, text: `Nothing could be read. ${result.problems.join(' ')}`.trim() };
				return;
			}
			downloadFile(result.blob, result.filename);
			const left = result.problems.length ? ` Not everything could be read: ${result.problems.join(' ')}` : '';
			this.outcome = {
				ok: true,
				text: `Saved ${result.sessions} session${result.sessions === 1 ? '' : 's'} (${result.messages} message${result.messages === 1 ? '' : 's'}) to ${result.filename}. Import it in Settings → Import.${left}`
			};
		} catch (error) {
			this.outcome = { ok: false, text: `Nothing could be read: ${error instanceof Error ? error.message : String(error)}` };
		} finally {
			this.busy = null;
		}
	}

	async startFresh(): Promise<void> {
		if (this.busy) return;
		this.busy = 'fresh';
		this.outcome = null;
		try {
			if (this.failure.database === 'meta') {
				await rebuildProfileList();
			} else {
				const meta = new MetaDb();
				try {
					const labels = (await listProfiles(meta)).map(profileLabel);
					const row = await createProfile(meta, freshProfileName(labels));
					await setActiveProfile(meta, row.name);
				} finally {
					meta.close();
				}
			}
			this.#reload();
		} catch (error) {
			this.outcome = { ok: false, text: `Could not start fresh: ${error instanceof Error ? error.message : String(error)}` };
			this.busy = null;
		}
	}
}
