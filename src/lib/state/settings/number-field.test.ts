import { describe, expect, it } from 'vitest';
import { describeRange, readNumber } from './number-field';

describe('numbers typed into Settings', () => {
	const percent = { min: 10, max: 99 };

	it('say their range', () => {
		expect(describeRange(percent)).toBe('A whole number from 10 to 99.');
		expect(describeRange({ min: 0.1, max: 100, integer: false })).toBe('A number from 0.1 to 100.');
	});

	it('are taken as typed when in range', () => {
		expect(readNumber('80', percent)).toEqual({ ok: true, value: 80 });
		expect(readNumber(' 2.5 ', { min: 0.1, max: 100, integer: false })).toEqual({ ok: true, value: 2.5 });
	});

	it('are refused, never changed into another value, when out of range or not numbers', () => {
		expect(readNumber('150', percent)).toEqual({ ok: false, message: '150 is more than 99, the most allowed; nothing was saved.' });
		expect(readNumber('-5', { min: 0, max: 600 })).toEqual({ ok: false, message: '-5 is less than 0, the least allowed; nothing was saved.' });
		expect(readNumber('12.5', percent)).toEqual({ ok: false, message: 'Enter a whole number (not 12.5); nothing was saved.' });
		expect(readNumber('', percent)).toEqual({ ok: false, message: 'Enter a whole number from 10 to 99; nothing was saved.' });
		expect(readNumber('1e400', percent).ok).toBe(false);
	});
});
