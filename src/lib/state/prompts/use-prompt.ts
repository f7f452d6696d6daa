// Using a saved prompt in the Message box: its text, and the variables to ask for first.
// Loaded when a prompt is first chosen, not with the page.
import type { PalimpsestDb } from '../../db/database';
import { findPromptByName } from '../../db/prompt-verbs';
import { fillVariables, findVariables } from '../../prompts/prompt-variables';

export { fillVariables };

export interface ChosenPrompt {
	name: string;
	text: string;
	/** Its {{variables}}, in order of first appearance: asked for before the text goes in. */
	variables: string[];
}

/** The prompt that answers to `name`, or null when there is none (deleted meanwhile). */
export async function readPrompt(db: PalimpsestDb, name: string): Promise<ChosenPrompt | null> {
	const row = await findPromptByName(db, name);
	return row ? { name: row.name, text: row.text, variables: findVariables(row.text) } : null;
}
