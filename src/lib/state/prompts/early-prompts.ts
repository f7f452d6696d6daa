// The saved prompts read ahead of the Prompts page, so that it shows them in its first frame.
import type { PalimpsestDb } from '../../db/database';
import { listPrompts } from '../../db/prompt-verbs';
import type { PromptRow } from '../../db/schema';
import { EarlyRead } from '../shared/early-read';

export const earlyPrompts = new EarlyRead<PromptRow[]>('prompts', listPrompts);

/** Reads the prompts of `db` ahead of the page (once, until one changes). */
export function readPromptsAhead(db: PalimpsestDb): Promise<void> {
	return earlyPrompts.start(db);
}
