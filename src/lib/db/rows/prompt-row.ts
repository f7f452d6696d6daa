// A saved prompt's row and its bounds.

/**
 * A saved prompt (the Prompts page; `/<name>` in the Message box). Its id is random, so a synced
 * document's id says nothing of it; `name` is unique among the profile's prompts as far as this
 * device wrote them (two devices may each save one of a name: the earlier one answers to it).
 */
export interface PromptRow {
	id: string;
	name: string;
	text: string;
	created_at: number;
	updated_at: number;
}

/** A prompt's name has at most this many characters, its text at most MAX_PROMPT_TEXT_CHARS; a profile holds at most MAX_PROMPTS. */
export const MAX_PROMPT_NAME_CHARS = 64;
export const MAX_PROMPT_TEXT_CHARS = 100_000;
export const MAX_PROMPTS = 1_000;
