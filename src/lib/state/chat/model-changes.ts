// Model changes a tab is still applying, by session (the row written, the pass after it done),
// each after the one before: a message sent meanwhile waits for them, else it would meet that
// pass's lock and be told the session is answering in another tab, or go out with the old model.
export class ModelChanges {
	#pending = new Map<string, Promise<void>>();

	/** Applies a change to session `id` once the changes before it are applied (or failed). */
	async run(id: string, apply: () => Promise<void>): Promise<void> {
		const change = (this.#pending.get(id) ?? Promise.resolve()).then(apply);
		const settled = change.catch(() => {});
		this.#pending.set(id, settled);
		try {
			await change;
		} finally {
			if (this.#pending.get(id) === settled) this.#pending.delete(id);
		}
	}

	/** Settles once the changes to session `id` under way are applied (or failed). */
	async settled(id: string): Promise<void> {
		await this.#pending.get(id);
	}
}
