// The names of the saved prompts, for the Message box's slash menu: read from the name index
// alone (no prompt's text), from the first "/" typed on, and followed as they change.
import type { PalimpsestDb } from '../../db/database';
import { watch } from '../../db/watch';

export class PromptNames {
	names = $state.raw<readonly string[]>([]);
	#db: PalimpsestDb;
	#stop: (() => void) | null = null;
	#stopped = false;

	constructor(db: PalimpsestDb) {
		this.#db = db;
	}

	/** Starts following the names, once (their reader loads then, not with the page). */
	follow(): void {
		if (this.#stop || this.#stopped) return;
		this.#stop = () => {};
		void import('../../db/prompt-verbs').then(({ listPromptNames }) => {
			if (this.#stopped) return;
			this.#stop = watch(
				() => listPromptNames(this.#db),
				(names) => (this.names = names)
			);
		});
	}

	stop(): void {
		this.#stopped = true;
		this.#stop?.();
	}
}
