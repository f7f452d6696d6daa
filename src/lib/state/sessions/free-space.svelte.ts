// "Delete sessions" when storage is full: the sessions that store the most text, largest first,
// to tick and delete, with the browser's own figure of the space used before and after.
import { SvelteSet } from 'svelte/reactivity';
import type { SessionSize } from '../../db/measure-sessions';
import type { OperationOutcome } from '../../sessions/announce-removal';
import { describeError } from '../shared/turn-helpers';

/** How many of the largest sessions the dialog lists. */
export const LISTED = 50;

export interface SpaceUsage {
	usage: number;
	quota: number;
}

export interface FreeSpaceParts {
	measure: () => Promise<SessionSize[]>;
	remove: (ids: string[]) => Promise<OperationOutcome>;
	/** The browser's estimate of what this site stores (absent where there is none). */
	estimate?: () => Promise<SpaceUsage | null>;
}

const browserEstimate = async (): Promise<SpaceUsage | null> => {
	const estimate = await globalThis.navigator?.storage?.estimate?.();
	return estimate?.usage !== undefined && estimate.quota !== undefined ? { usage: estimate.usage, quota: estimate.quota } : null;
};

/** Bytes (or characters of text) as a short figure: "640 KB", "2.4 MB". */
export function formatSize(bytes: number): string {
	if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en')} KB`;
	if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
	return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

export class FreeSpace {
	open = $state(false);
	loading = $state(false);
	/** The largest sessions, largest first. */
	largest = $state.raw<SessionSize[]>([]);
	/** Every session of the profile, archived ones too. */
	total = $state(0);
	chosen = new SvelteSet<string>();
	usage = $state<SpaceUsage | null>(null);
	deleting = $state(false);
	error = $state('');
	/** What the last deletion did, in a sentence. */
	outcome = $state('');
	#parts: FreeSpaceParts;

	constructor(parts: FreeSpaceParts) {
		this.#parts = parts;
	}

	/** Opens the dialog and measures every session (in the search worker). */
	async show(): Promise<void> {
		this.open = true;
		this.chosen.clear();
		this.error = '';
		this.outcome = '';
		await this.#load();
	}

	close(): void {
		this.open = false;
	}

	toggle(id: string, on: boolean): void {
		if (on) this.chosen.add(id);
		else this.chosen.delete(id);
	}

	/** Characters of text the ticked sessions store. */
	get chosenChars(): number {
		return this.largest.filter((s) => this.chosen.has(s.id)).reduce((sum, s) => sum + s.chars, 0);
	}

	/** Deletes the ticked sessions as one operation, then measures again. */
	async deleteChosen(): Promise<void> {
		const ids = this.largest.filter((s) => this.chosen.has(s.id)).map((s) => s.id);
		if (!ids.length || this.deleting) return;
		this.deleting = true;
		this.error = '';
		const before = this.usage;
		try {
			const outcome = await this.#parts.remove(ids);
			this.chosen.clear();
			await this.#load();
			const count = outcome.ids.length;
			const space = before && this.usage ? ` This site now stores ${formatSize(this.usage.usage)} (it was ${formatSize(before.usage)}).` : '';
			this.outcome = `Deleted ${count} ${count === 1 ? 'session' : 'sessions'}.${space}`;
		} catch (error) {
			this.error = `Nothing was deleted: ${describeError(error)}`;
		} finally {
			this.deleting = false;
		}
	}

	async #load(): Promise<void> {
		this.loading = true;
		try {
			const [sizes, usage] = await Promise.all([this.#parts.measure(), (this.#parts.estimate ?? browserEstimate)().catch(() => null)]);
			this.largest = sizes.slice(0, LISTED);
			this.total = sizes.length;
			this.usage = usage;
		} catch (error) {
			this.error = describeError(error);
		} finally {
			this.loading = false;
		}
	}
}
