// Prompts from outside (an imported file, another device through sync) are hostile input: each
// is read field by field into the shape the app stores, within its bounds, or dropped and
// counted; never more than MAX_PROMPTS. Pure.
import { BUILTIN_NAMES } from '../commands/builtin-names';
import { MAX_PROMPT_TEXT_CHARS, MAX_PROMPTS, type PromptRow } from '../db/schema';
import { FieldError, isPlainObject, number, record, text, withDefault, type Parse, type Shape } from '../sessions/import-schema';
import { isPromptName, refuseName } from './prompt-name';

/** As a session's id: this app writes 36-character UUIDs. */
const MAX_ID_CHARS = 200;
/** The largest time a Date holds. */
const MAX_TIME = 8_640_000_000_000_000;

/** An id of no control characters. */
const id: Parse<string> = (v, dropped) => {
	const value = text(MAX_ID_CHARS, { nonEmpty: true })(v, dropped);
	// eslint-disable-next-line no-control-regex -- control characters are what it refuses
	if (/[\u0000-\u001f\u007f]/.test(value)) throw new FieldError([], v, 'an id without control characters');
	return value;
};

/** A name a prompt may have here: the pattern, and no built-in command's. */
export const promptName: Parse<string> = (v) => {
	if (!isPromptName(v) || refuseName(v, BUILTIN_NAMES)) throw new FieldError([], v, 'a prompt name (lowercase letters, digits and dashes, no command’s)');
	return v;
};

export const promptText = text(MAX_PROMPT_TEXT_CHARS);
const time = number(0, MAX_TIME);

export const PROMPT_SHAPE: Shape<PromptRow> = {
	required: {
		id,
		name: promptName,
		text: promptText,
		created_at: withDefault(time, () => 0),
		updated_at: withDefault(time, () => 0)
	},
	optional: {}
};

const readPrompt = record(PROMPT_SHAPE, 'a prompt (an object)');

export interface ReadPrompts {
	prompts: PromptRow[];
	/** Entries that were not a prompt this app keeps (a bad field, an id met twice, past MAX_PROMPTS). */
	dropped: number;
	/** Fields of kept prompts this app does not know, left out. */
	droppedFields: number;
}

/** The prompts of `value` (an imported file's `prompts`): what fits, the rest counted. Absent is none. */
export function readPrompts(value: unknown): ReadPrompts {
	if (value === undefined) return { prompts: [], dropped: 0, droppedFields: 0 };
	if (!Array.isArray(value)) return { prompts: [], dropped: 1, droppedFields: 0 };
	const prompts: PromptRow[] = [];
	const ids = new Set<string>();
	const fields = { fields: 0 };
	let dropped = 0;
	for (const entry of value) {
		if (prompts.length === MAX_PROMPTS || !isPlainObject(entry)) {
			dropped += 1;
			continue;
		}
		const own = { fields: 0 };
		try {
			const prompt = readPrompt(entry, own);
			if (ids.has(prompt.id)) throw new FieldError(['id'], prompt.id, 'an id no other prompt of the file has');
			ids.add(prompt.id);
			prompts.push(prompt);
			fields.fields += own.fields;
		} catch (error) {
			if (!(error instanceof FieldError)) throw error;
			dropped += 1;
		}
	}
	return { prompts, dropped, droppedFields: fields.fields };
}
