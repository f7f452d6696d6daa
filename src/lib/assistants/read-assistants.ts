// Assistants from outside (an imported file, another device through sync) are hostile input: each
// is read field by field into the shape the app stores, within its bounds, or dropped and counted;
// never more than a profile keeps. A value that does not fit refuses its assistant (an assistant
// without the system prompt it was given would answer otherwise); a field this app does not know
// is left out and counted. Pure.
import { ASSISTANT_LIMITS, type AssistantRow, type ChatSettings } from '../db/schema';
import { CHAT_SETTINGS_KEYS, readChatSettings } from '../sessions/chat-settings';
import { FieldError, isPlainObject, list, number, record, text, withDefault, type Parse, type Shape } from '../sessions/import-schema';

const L = ASSISTANT_LIMITS;
/** As a session's id: this app writes 36-character UUIDs. */
const MAX_ID_CHARS = 200;
/** The largest time a Date holds. */
const MAX_TIME = 8_640_000_000_000_000;
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Text of no control characters (an id, a provider, a model). */
function plain(max: number, nonEmpty: boolean): Parse<string> {
	const read = text(max, { nonEmpty });
	return (v, dropped) => {
		const value = read(v, dropped);
		if (CONTROL.test(value)) throw new FieldError([], v, 'text without control characters');
		return value;
	};
}

/** A name: some text that is not only spaces, on one line. */
export const assistantName: Parse<string> = (v, dropped) => {
	const value = plain(L.nameChars, true)(v, dropped);
	if (!value.trim()) throw new FieldError([], v, 'a name that is not only spaces');
	return value;
};

const starter: Parse<string> = (v, dropped) => {
	const value = text(L.starterChars, { nonEmpty: true })(v, dropped);
	if (!value.trim()) throw new FieldError([], v, 'a starter prompt that is not only spaces');
	return value;
};

export const assistantStarters = list(starter, L.starters);
export const assistantModel = plain(L.modelChars, false);

/**
 * An assistant's chat settings, by the rules of a chat's own (see chat-settings.ts); a value that
 * does not fit them refuses the assistant, an unknown field is left out and counted.
 */
export const assistantChatSettings: Parse<ChatSettings> = (v, dropped) => {
	if (!isPlainObject(v)) throw new FieldError([], v, 'chat settings (an object)');
	const own = { fields: 0 };
	const read = readChatSettings(v, own) ?? {};
	for (const key of CHAT_SETTINGS_KEYS) {
		const value = Object.hasOwn(v, key) ? v[key] : undefined;
		const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
		if (!empty && !Object.hasOwn(read, key)) throw new FieldError([key], value, 'a value within the bounds of Chat settings');
	}
	dropped.fields += own.fields;
	return read;
};

const time = number(0, MAX_TIME);

export const ASSISTANT_SHAPE: Shape<AssistantRow> = {
	required: {
		id: plain(MAX_ID_CHARS, true),
		name: assistantName,
		provider: withDefault(assistantModel, () => ''),
		model: withDefault(assistantModel, () => ''),
		starters: withDefault(assistantStarters, () => []),
		created_at: withDefault(time, () => 0),
		updated_at: withDefault(time, () => 0)
	},
	optional: { chat_settings: assistantChatSettings }
};

const readAssistant = record(ASSISTANT_SHAPE, 'an assistant (an object)');

export interface ReadAssistants {
	assistants: AssistantRow[];
	/** Entries that were not an assistant this app keeps (a value out of bounds, an id met twice, past the most a profile keeps). */
	dropped: number;
	/** Fields of kept assistants this app does not know, left out. */
	droppedFields: number;
	/** Why the first dropped entry was dropped, for the user (empty when none was). */
	firstReason: string;
}

/** The assistants of `value` (a file's `assistants`): what fits, in the stored form, the rest counted. */
export function readAssistants(value: unknown): ReadAssistants {
	const out: ReadAssistants = { assistants: [], dropped: 0, droppedFields: 0, firstReason: '' };
	const drop = (reason: string) => {
		out.dropped += 1;
		out.firstReason ||= reason;
	};
	if (!Array.isArray(value)) {
		drop('the file holds no list of assistants');
		return out;
	}
	const ids = new Set<string>();
	for (const [index, entry] of value.entries()) {
		if (out.assistants.length === L.assistants) {
			drop(`a profile keeps at most ${L.assistants.toLocaleString('en')} assistants`);
			continue;
		}
		const own = { fields: 0 };
		try {
			const assistant = readAssistant(entry, own);
			if (ids.has(assistant.id)) throw new FieldError(['id'], assistant.id, 'an id no other assistant of the file has');
			ids.add(assistant.id);
			// A fresh copy in the stored field order, settings only when some are set.
			const { chat_settings, ...rest } = assistant;
			out.assistants.push(chat_settings && Object.keys(chat_settings).length ? { ...rest, chat_settings } : rest);
			out.droppedFields += own.fields;
		} catch (error) {
			if (!(error instanceof FieldError)) throw error;
			drop(`assistant ${index + 1}: ${error.path.length ? `its “${error.path.join('.')}” is not` : 'it is not'} ${error.expected}`);
		}
	}
	return out;
}
