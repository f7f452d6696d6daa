// The Prompts page: the profile's saved prompts as they change (here or in another tab), and
// saving, editing and deleting them. Loaded with the page, not with the app.
import type { PalimpsestDb } from '../../db/database';
import { deletePrompt, listPrompts, savePrompt } from '../../db/prompt-verbs';
import type { PromptRow } from '../../db/schema';
import { watch } from '../../db/watch';
import { BUILTIN_NAMES } from '../../commands/builtin-names';
import { MAX_PROMPT_TEXT_CHARS, refuseName } from '../../prompts/prompt-name';
import { countVariables, findVariables, MAX_VARIABLES } from '../../prompts/prompt-variables';
import type { ConfirmState } from '../shared/confirm.svelte';

export type { PromptRow };
export { findVariables };

export class PromptsState {
	prompts = $state.raw<PromptRow[]>([]);
	loaded = $state(false);
	readonly #db: PalimpsestDb;
	readonly #commands: () => string[];
	readonly #confirm: ConfirmState;

	/** `commands`: the names of the commands there are now (a prompt may take none of them). */
	constructor(db: PalimpsestDb, commands: () => string[], confirm: ConfirmState) {
		this.#db = db;
		this.#commands = commands;
		this.#confirm = confirm;
	}

	follow(): () => void {
		return watch(
			() => listPrompts(this.#db),
			(rows) => {
				this.prompts = rows;
				this.loaded = true;
			}
		);
	}

	/** Why this prompt cannot be saved, for the user, or null. */
	refusal(name: string, text: string): string | null {
		const named = refuseName(name, [...BUILTIN_NAMES, ...this.#commands()]);
		if (named) return named;
		if (!text.trim()) return 'A prompt needs some text.';
		if (text.length > MAX_PROMPT_TEXT_CHARS) return `A prompt's text has at most ${MAX_PROMPT_TEXT_CHARS.toLocaleString('en')} characters; this one has ${text.length.toLocaleString('en')}.`;
		const variables = countVariables(text);
		if (variables > MAX_VARIABLES) return `A prompt asks for at most ${MAX_VARIABLES} variables; this one has ${variables}.`;
		return null;
	}

	/** Saves a new prompt (no `id`) or changes one; throws with what the user should know. */
	async save(prompt: { id?: string; name: string; text: string }): Promise<PromptRow> {
		const refusal = this.refusal(prompt.name, prompt.text);
		if (refusal) throw new Error(refusal);
		return savePrompt(this.#db, prompt);
	}

	/** Deletes `prompt` once the user confirmed; resolves to whether it was deleted. */
	async remove(prompt: PromptRow): Promise<boolean> {
		const yes = await this.#confirm.ask({
			title: 'Delete this prompt?',
			message: [`The prompt `, { title: `/${prompt.name}` }, ` is deleted from this profile (and from every device that syncs with it). This cannot be undone.`],
			confirmLabel: 'Delete',
			danger: true
		});
		if (yes) await deletePrompt(this.#db, prompt.id);
		return yes;
	}
}
