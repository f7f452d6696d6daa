// The assistants read ahead of the Assistants page, so that it shows them in its first frame.
import type { PalimpsestDb } from '../../db/database';
import { listAssistants } from '../../db/assistant-verbs';
import type { AssistantRow } from '../../db/schema';
import { EarlyRead } from '../shared/early-read';

export const earlyAssistants = new EarlyRead<AssistantRow[]>('assistants', listAssistants);

/** Reads the assistants of `db` ahead of the page (once, until one changes). */
export function readAssistantsAhead(db: PalimpsestDb): Promise<void> {
	return earlyAssistants.start(db);
}
