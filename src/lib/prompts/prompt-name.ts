// What a saved prompt may be called: a name typed after `/` in the Message box, so lowercase
// letters, digits and dashes, and never a command's name. Pure.

import { MAX_PROMPT_NAME_CHARS } from '../db/schema';

export { MAX_PROMPT_NAME_CHARS, MAX_PROMPT_TEXT_CHARS, MAX_PROMPTS } from '../db/schema';

const NAME = /^[a-z0-9][a-z0-9-]*$/;

export function isPromptName(value: unknown): value is string {
	return typeof value === 'string' && value.length <= MAX_PROMPT_NAME_CHARS && NAME.test(value);
}

/**
 * Why `name` cannot be a prompt's name, for the user, or null when it can. `commands` are the
 * names of the commands there are (built-ins, reserved ones and plugins').
 */
export function refuseName(name: string, commands: Iterable<string>): string | null {
	if (!name) return 'A prompt needs a name.';
	if (name.length > MAX_PROMPT_NAME_CHARS) return `A prompt's name has at most ${MAX_PROMPT_NAME_CHARS} characters.`;
	if (!NAME.test(name)) return 'A prompt’s name is lowercase letters, digits and dashes (for example “translate” or “fix-grammar”), starting with a letter or digit.';
	for (const command of commands) if (command === name) return `“/${name}” is a command: choose another name.`;
	return null;
}
