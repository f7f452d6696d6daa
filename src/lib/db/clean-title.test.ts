// A title never carries control characters: no bell, no invisible bytes, no bidi control that
// turns the words after it around; letters of every script stay as they are.
import { describe, expect, it } from 'vitest';
import { cleanTitle } from './clean-title';

describe('cleanTitle', () => {
	it('leaves out a bidi override and a bell, keeping every letter', () => {
		expect(cleanTitle('Invoice \u202Efdp.exe\u0007')).toBe('Invoice fdp.exe');
	});

	it('leaves out every C0 and C1 control, DEL, and the bidi embeddings, overrides and isolates', () => {
		const controls = [0x00, 0x01, 0x07, 0x1b, 0x1f, 0x7f, 0x80, 0x9b, 0x9f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
		for (const code of controls) expect(cleanTitle(`a${String.fromCharCode(code)}b`), `U+${code.toString(16)}`).toBe('ab');
	});

	it('turns line breaks and tabs into spaces: a title is one line', () => {
		expect(cleanTitle('Plans\nfor\tMay\r\n\u2028next')).toBe('Plans for May next');
	});

	it('keeps ordinary text of every script, right-to-left letters and emoji included', () => {
		for (const title of ['خطة الرحلة', 'תוכנית', 'Ünïcödé — “quotes” · 日本語', 'Trip 🚆 plans', 'a\u200db', 'x\u00a0y']) expect(cleanTitle(title)).toBe(title);
	});
});
