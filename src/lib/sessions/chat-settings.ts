// A chat's own settings (Chat settings): their bounds, and the one form every writer stores
// (fields in one order, each within its type and range, nothing unset or empty), so that two
// devices or an export and its import compare them as equal. An imported file's or a synced
// document's settings are read with the same rules: a value that does not fit is dropped and
// counted, the others kept.
import type { ChatSettings } from '../db/schema';
import type { ReasoningEffort } from '../providers/types';
import { isPlainObject, type Parse } from './import-schema';

export const CHAT_SETTINGS_LIMITS = {
	/** Characters of a chat's system prompt. */
	promptChars: 100_000,
	temperature: [0, 2],
	topP: [0, 1],
	/** The most an answer may be given, in tokens. */
	maxTokens: 1_000_000,
	/** The percent of the window a chat of its own threshold compacts at (as Settings allows). */
	threshold: [5, 99],
	/** Tool servers or plugin tools one chat leaves out. */
	toolsOff: 1_000,
	/** Characters of a tool server's address or a plugin tool's name in those lists. */
	toolChars: 2_000
} as const;

const L = CHAT_SETTINGS_LIMITS;

export const REASONING_EFFORTS = Object.keys({ low: 1, medium: 1, high: 1 } satisfies Record<ReasoningEffort, 1>) as ReasoningEffort[];

const inRange = (value: unknown, [min, max]: readonly [number, number]): value is number => typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/** A list of names, each once, in order (so equal lists are equal as JSON); undefined when empty or not a list of names. */
function names(value: unknown): string[] | undefined {
	if (!Array.isArray(value) || value.length > L.toolsOff || !value.every((name) => typeof name === 'string' && name !== '' && name.length <= L.toolChars)) return undefined;
	return value.length ? [...new Set(value as string[])].sort() : undefined;
}

/** How each field is read, in the order it is stored: undefined for a value that does not fit. */
const FIELDS: { [K in keyof ChatSettings]-?: (value: unknown) => ChatSettings[K] } = {
	system_prompt: (v) => (typeof v === 'string' && v.length <= L.promptChars && v.trim() !== '' ? v : undefined),
	temperature: (v) => (inRange(v, L.temperature) ? v : undefined),
	top_p: (v) => (inRange(v, L.topP) ? v : undefined),
	max_tokens: (v) => (inRange(v, [1, L.maxTokens]) && Number.isInteger(v) ? v : undefined),
	reasoning_effort: (v) => (REASONING_EFFORTS.includes(v as ReasoningEffort) ? (v as ReasoningEffort) : undefined),
	compaction: (v) => (v === 'off' ? 'off' : inRange(v, L.threshold) && Number.isInteger(v) ? v : undefined),
	tool_servers_off: names,
	plugin_tools_off: names
};

/** The fields of a chat's settings, in the order they are stored. */
export const CHAT_SETTINGS_KEYS = Object.keys(FIELDS) as (keyof ChatSettings)[];
const KEYS = CHAT_SETTINGS_KEYS;

/**
 * `value` as a chat's settings: its fields that fit, in the stored order; undefined when none is
 * set. `dropped.fields` counts what was left out: a value out of its type or range, a field this
 * app does not know (an empty prompt or list is no value, and is not counted).
 */
export function readChatSettings(value: unknown, dropped = { fields: 0 }): ChatSettings | undefined {
	if (!isPlainObject(value)) {
		if (value !== undefined && value !== null) dropped.fields += 1;
		return undefined;
	}
	const settings: Record<string, unknown> = {};
	for (const key of KEYS) {
		if (!Object.hasOwn(value, key) || value[key] === undefined || isEmpty(value[key])) continue;
		const read = FIELDS[key](value[key]);
		if (read === undefined) dropped.fields += 1;
		else settings[key] = read;
	}
	for (const key of Object.keys(value)) if (!(KEYS as string[]).includes(key)) dropped.fields += 1;
	return Object.keys(settings).length ? (settings as ChatSettings) : undefined;
}

const isEmpty = (value: unknown) => value === '' || (Array.isArray(value) && value.length === 0);

/** An imported file's settings of a session (see import-rows.ts): what fits is kept, the rest dropped and counted. */
export const parseChatSettings: Parse<ChatSettings> = (value, dropped) => readChatSettings(value, dropped) as ChatSettings;
