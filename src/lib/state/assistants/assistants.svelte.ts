// The Assistants page: the profile's assistants as they change (here, in another tab or through
// sync), saving, duplicating and deleting them, and their file (export, and an import that adds
// what fits and says what it left out). Loaded with the page, not with the app.
import type { PalimpsestDb } from '../../db/database';
import { deleteAssistant, duplicateAssistant, listAssistants, saveAssistant, writeImportedAssistants, type AssistantFields } from '../../db/assistant-verbs';
import { ASSISTANT_LIMITS, type AssistantRow } from '../../db/schema';
import { watch } from '../../db/watch';
import { AssistantsFileError, assistantsFilename, checkAssistantsFileSize, parseAssistantsFile, writeAssistantsFile } from '../../assistants/assistants-file';
import type { ConfirmState } from '../shared/confirm.svelte';

export type { AssistantFields, AssistantRow };
export { ASSISTANT_LIMITS };

const count = (n: number, noun: string, plural = `${noun}s`) => `${n.toLocaleString('en')} ${n === 1 ? noun : plural}`;

export class AssistantsState {
	assistants = $state.raw<AssistantRow[]>([]);
	loaded = $state(false);
	readonly #db: PalimpsestDb;
	readonly #confirm: ConfirmState;
	readonly #profile: string;

	constructor(db: PalimpsestDb, confirm: ConfirmState, profile: string) {
		this.#db = db;
		this.#confirm = confirm;
		this.#profile = profile;
	}

	follow(): () => void {
		return watch(
			() => listAssistants(this.#db),
			(rows) => {
				this.assistants = rows;
				this.loaded = true;
			}
		);
	}

	/** Why these fields cannot be saved, for the user, or null. */
	refusal(fields: AssistantFields): string | null {
		const L = ASSISTANT_LIMITS;
		if (!fields.name.trim()) return 'An assistant needs a name.';
		if (fields.name.length > L.nameChars) return `A name has at most ${L.nameChars} characters; this one has ${fields.name.length}.`;
		// eslint-disable-next-line no-control-regex -- a name is one line
		if (/[\u0000-\u001f\u007f]/.test(fields.name)) return 'A name is one line of text.';
		if (fields.starters.length > L.starters) return `An assistant offers at most ${L.starters} starter prompts; this one has ${fields.starters.length}.`;
		const long = fields.starters.find((starter) => starter.length > L.starterChars);
		if (long) return `A starter prompt has at most ${L.starterChars.toLocaleString('en')} characters; “${long.slice(0, 40)}…” has ${long.length.toLocaleString('en')}.`;
		return null;
	}

	/** Saves a new assistant (no `id`) or changes one; throws with what the user should know. */
	async save(fields: AssistantFields, id?: string): Promise<AssistantRow> {
		const refusal = this.refusal(fields);
		if (refusal) throw new Error(refusal);
		return saveAssistant(this.#db, { ...fields, name: fields.name.trim() }, id);
	}

	duplicate(assistant: AssistantRow): Promise<AssistantRow> {
		return duplicateAssistant(this.#db, assistant.id);
	}

	/** Deletes `assistant` once the user confirmed; resolves to whether it was deleted. Its chats stay as they are. */
	async remove(assistant: AssistantRow): Promise<boolean> {
		const yes = await this.#confirm.ask({
			title: 'Delete this assistant?',
			message: ['The assistant ', { title: assistant.name }, ' is deleted from this profile (and from every device that syncs with it). Chats started from it keep their settings. This cannot be undone.'],
			confirmLabel: 'Delete',
			danger: true
		});
		if (yes) await deleteAssistant(this.#db, assistant.id);
		return yes;
	}

	/** The file of every assistant, and its name. */
	async exportFile(now = Date.now()): Promise<{ blob: Blob; filename: string; count: number }> {
		const rows = await listAssistants(this.#db);
		if (!rows.length) throw new Error('There are no assistants to export.');
		return { blob: new Blob([writeAssistantsFile(rows, now)], { type: 'application/json' }), filename: assistantsFilename(this.#profile, now), count: rows.length };
	}

	/** Imports a file of assistants: adds those that fit and are new here; resolves to what it did, in words. Throws for a file that is not one. */
	async importFile(file: Blob): Promise<string> {
		checkAssistantsFileSize(file.size);
		const read = parseAssistantsFile(await file.text());
		const written = read.assistants.length ? await writeImportedAssistants(this.#db, read.assistants) : { added: 0, skipped: 0 };
		const parts = [
			written.added ? `Imported ${count(written.added, 'assistant')}.` : 'No assistant was imported.',
			written.skipped ? `Skipped ${count(written.skipped, 'assistant')} this profile has already (or past the ${ASSISTANT_LIMITS.assistants} a profile keeps).` : '',
			read.dropped ? `Left out ${count(read.dropped, 'entry', 'entries')} that ${read.dropped === 1 ? 'is' : 'are'} not an assistant this app keeps (the first: ${read.firstReason}).` : '',
			read.droppedFields ? `Left out ${count(read.droppedFields, 'unknown field')}.` : ''
		];
		return parts.filter(Boolean).join(' ');
	}
}

export { AssistantsFileError };
