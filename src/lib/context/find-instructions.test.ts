import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract-facts';

const instructions = (...texts: string[]) =>
	extractFacts(texts.map((content, i) => ({ seq: i + 1, role: 'user' as const, content })))
		.filter((fact) => fact.class === 'instruction')
		.map((fact) => fact.text);

describe("extractFacts takes the user's instructions without a marker word", () => {
	it('takes a limit, written with its count first or last', () => {
		expect(instructions('Four rounds max. Three new features at most. Max 2 pages. We had four rounds.')).toEqual(['Four rounds max.', 'Three new features at most.', 'Max 2 pages.']);
	});

	it('takes more commands by their verb when what follows is what they act on', () => {
		expect(instructions('Compare the two warranties first. Deploy it tonight. Run times are slow.')).toEqual(['Compare the two warranties first.', 'Deploy it tonight.']);
	});

	it('takes what a thing of the user’s should be', () => {
		expect(instructions('The confirmation should go to l.moreau@example.com. The start date should be 1 September at the latest. That should work.')).toEqual([
			'The confirmation should go to l.moreau@example.com.',
			'The start date should be 1 September at the latest.'
		]);
	});

	it('takes what may not be, and what the user passes on from someone else', () => {
		expect(instructions("Marco is lactose intolerant, and nothing can contain nuts. He said no speed work and no hills for 4 weeks. He said it's fine.")).toEqual([
			'Marco is lactose intolerant, and nothing can contain nuts.',
			'He said no speed work and no hills for 4 weeks.'
		]);
	});
});
