import { describe, expect, it } from 'vitest';
import { countVariables, fillVariables, findVariables, MAX_VARIABLES } from './prompt-variables';

describe('the variables of a prompt', () => {
	it('are its {{names}}, each once, in the order they first appear, spaces inside the braces allowed', () => {
		expect(findVariables('Translate {{text}} into {{ language }}; keep {{text}} short')).toEqual(['text', 'language']);
		expect(findVariables('Plain text, no variables')).toEqual([]);
	});

	it('leave out what is not one: single braces, an empty or odd name, a name that starts with a digit', () => {
		expect(findVariables('{text} {{}} {{two words}} {{1st}} {{a.b}} {{ok_1}} {{with-dash}}')).toEqual(['ok_1', 'with-dash']);
	});

	it('stop at MAX_VARIABLES, however many a prompt from elsewhere holds', () => {
		const text = Array.from({ length: 500 }, (_, i) => `{{v${i}}}`).join(' ');
		expect(findVariables(text)).toHaveLength(MAX_VARIABLES);
		expect(findVariables(text)[MAX_VARIABLES - 1]).toBe(`v${MAX_VARIABLES - 1}`);
		expect(countVariables(text)).toBe(500);
	});

	it('are filled in everywhere they appear, values taken as written', () => {
		expect(fillVariables('Translate {{text}} into {{ language }}. ({{text}})', { text: 'Bonjour', language: 'English' })).toBe('Translate Bonjour into English. (Bonjour)');
		// "$&" and "$1" are dollar signs in a value, not replacement patterns.
		expect(fillVariables('Price: {{amount}}', { amount: '$& and $1' })).toBe('Price: $& and $1');
	});

	it('without a value, and names that are an object’s own, stay as written', () => {
		expect(fillVariables('{{a}} {{b}} {{constructor}}', { a: 'x' })).toBe('x {{b}} {{constructor}}');
	});
});
