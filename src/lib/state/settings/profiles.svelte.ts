// Profiles for the UI: the live list, and switching, creating, renaming and deleting. This tab
// keeps the profile it opened with until it reloads; switching writes the active profile and
// reloads, so sessions, settings, plugins, hooks and the local user all change together.
// Other open tabs keep their profile until they are reloaded; a tab whose profile is deleted
// reloads into the root profile.
import type { MetaDb, ProfileRow } from '../../db/meta-db';
import { profileLabel } from '../../db/profile-id';
import {
	countProfileSessions,
	createProfile,
	deleteProfile,
	listProfiles,
	renameProfile,
	setActiveProfile
} from '../../db/profile-verbs';
import { watch } from '../../db/watch';
import { busySessions } from '../../sessions/work-lock';

export { profileLabel };

export interface ProfileHost {
	/** Whether this tab is answering or compacting now (a reload would cut it off). */
	working(): boolean;
	/** Stops this tab's stores and closes its database, before its own profile is deleted. */
	leave(): void;
	/** Starts the app again on the active profile. */
	reload(): void;
}

export class ProfilesState {
	list = $state<ProfileRow[]>([]);
	/** The profile this tab runs on. */
	readonly current: ProfileRow;
	#meta: MetaDb;
	#host: ProfileHost;

	constructor(meta: MetaDb, current: ProfileRow, host: ProfileHost) {
		this.#meta = meta;
		this.current = current;
		this.#host = host;
		this.list = [current];
	}

	start(): () => void {
		return watch(() => listProfiles(this.#meta), (rows) => (this.list = rows));
	}

	/** What this tab's profile is called now (a rename in another tab shows here too). */
	get currentLabel(): string {
		return profileLabel(this.list.find((p) => p.name === this.current.name) ?? this.current);
	}

	label(id: string): string {
		const row = this.list.find((p) => p.name === id);
		return row ? profileLabel(row) : id;
	}

	#refuseIfWorking(action: string): void {
		if (this.#host.working()) throw new Error(`Wait for the answer to finish, or stop it, before ${action}.`);
	}

	async switchTo(id: string): Promise<void> {
		if (id === this.current.name) return;
		this.#refuseIfWorking('switching profiles');
		await setActiveProfile(this.#meta, id);
		this.#host.reload();
	}

	/** Creates a profile, without switching to it: the user is asked first. */
	async create(name: string): Promise<{ id: string; label: string }> {
		const row = await createProfile(this.#meta, name);
		return { id: row.name, label: profileLabel(row) };
	}

	rename(id: string, name: string): Promise<void> {
		return renameProfile(this.#meta, id, name);
	}

	sessionCount(id: string): Promise<number> {
		return countProfileSessions(id);
	}

	/**
	 * Deletes a profile with its database. Refused while any tab answers, compacts or deletes
	 * in it. Deleting this tab's own profile reloads into the root profile.
	 */
	async remove(id: string): Promise<void> {
		if ((await busySessions(id)).working.size > 0) {
			throw new Error('A session of this profile is busy in some tab (answering, compacting or being deleted). Wait for it to finish, or stop it, then delete the profile.');
		}
		if (id !== this.current.name) {
			await deleteProfile(this.#meta, id);
			return;
		}
		this.#host.leave();
		try {
			await deleteProfile(this.#meta, id);
		} finally {
			this.#host.reload();
		}
	}
}
