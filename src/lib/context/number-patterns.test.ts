import { describe, expect, it } from 'vitest';
import { extractFacts, factKey, type FactSource } from './extract-facts';

const said = (content: string, role: FactSource['role'] = 'assistant') => extractFacts([{ seq: 1, role, content }]);
const numbers = (content: string, role?: FactSource['role']) => said(content, role).filter((fact) => fact.class === 'number').map((fact) => fact.text);

describe('extractFacts takes a number with what it measures', () => {
	it('takes a score, a share or a count with the word it measures after it, not a verb, an adverb or a small word', () => {
		expect(numbers('Casa do Príncipe Real has a 9.1 rating and offers a 35% discount; 11 passed in the last run.')).toEqual(['35% discount', '9.1 rating', '11 passed']);
		expect(numbers('The rate of 15.3% applies to 5% exactly; the proxy returns a 504 after 20 ms.')).toEqual(['15.3%', '5%', '20 ms', '504']);
	});

	it('takes sets of a measure whole: "2 sessions of 45 minutes", "3 sets of 15 reps"', () => {
		expect(numbers('Bike for 2 sessions of 45 minutes and do 3 sets of 15 reps.')).toEqual(['2 sessions of 45 minutes', '3 sets of 15 reps']);
	});

	it('takes every number a role names: "channel 1, 6 or 11"', () => {
		expect(numbers('Is the 2.4 GHz band on channel 1, 6 or 11?')).toEqual(['channel 1, 6 or 11', '2.4 GHz']);
	});

	it('takes a value on a line of its own with what it counts, a small number too', () => {
		expect(numbers('Applications received: 87\nTake-home sent: 6\nUptime: 2 days', 'tool')).toEqual(['Applications received: 87', 'Take-home sent: 6', '2 days']);
	});

	it('takes a count of things written with a hyphen, and a section of a law or plan', () => {
		expect(numbers('We sent 6 take-homes; the 401(k) and the 501(c)(3) rules apply.')).toEqual(['6 take-homes', '401(k)', '501(c)(3)']);
	});

	it('takes a number with the setting it is the value of, the word right before it, but not a small word or a verb', () => {
		expect(numbers('Redis defaults to maxclients 10000; train with seed 42 on firmware 7.57. It costs 42 and reached 10000.')).toEqual([
			'maxclients 10000',
			'seed 42',
			'firmware 7.57',
			'42',
			'10000'
		]);
		expect(factKey('number', 'seed 42')).toBe('seed 42');
	});

	it('takes a ratio or fraction whole, not as the number before its slash', () => {
		expect(numbers('A random 80/20 split, support 24/7, and 3/4 of the budget by 12/05/2024.')).toEqual(['12/05/2024', '80/20', '24/7', '3/4']);
	});

	it('does not read a word that only begins as a role does: the "Pro 14" of a laptop is no pull request', () => {
		expect(numbers('The ASUS Zenbook Pro 14 is light at 1.6 kg.')).toEqual(['1.6 kg']);
		expect(factKey('number', '9.1 rating')).toBe('9 1 rating');
	});
});
