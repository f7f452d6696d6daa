import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMES } from '../commands/builtin-names';
import { isPromptName, MAX_PROMPT_NAME_CHARS, refuseName } from './prompt-name';

describe('a prompt’s name', () => {
	it('is lowercase letters, digits and dashes, up to 64 characters', () => {
		for (const name of ['translate', 'fix-grammar', 'v2', '2-step', 'a'.repeat(MAX_PROMPT_NAME_CHARS)]) {
			expect(refuseName(name, BUILTIN_NAMES), name).toBeNull();
			expect(isPromptName(name)).toBe(true);
		}
		for (const name of ['Translate', 'fix grammar', 'fix_grammar', '-dash', 'é', '/x', 'a'.repeat(MAX_PROMPT_NAME_CHARS + 1)]) {
			expect(refuseName(name, BUILTIN_NAMES), name).toMatch(/lowercase|at most/);
			expect(isPromptName(name)).toBe(false);
		}
		expect(refuseName('', BUILTIN_NAMES)).toBe('A prompt needs a name.');
		expect(isPromptName(42)).toBe(false);
	});

	it('is never a command’s, built-in or a plugin’s', () => {
		expect(refuseName('help', BUILTIN_NAMES)).toBe('“/help” is a command: choose another name.');
		expect(refuseName('whoami', [...BUILTIN_NAMES, 'whoami'])).toBe('“/whoami” is a command: choose another name.');
		expect(refuseName('whoami', BUILTIN_NAMES)).toBeNull();
	});
});
