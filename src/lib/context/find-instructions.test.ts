import { describe, expect, it } from 'vitest';
import { checkFacts, instructionKey } from './check-facts';
import { extractFacts, type FactSource } from './extract-facts';

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

	it('takes a limit on every option, with its number', () => {
		expect(instructions('Nothing over 2 kg, she cycles to campus. No flight longer than 10 hours. Nothing over the weekend worked.')).toEqual([
			'Nothing over 2 kg, she cycles to campus.',
			'No flight longer than 10 hours.'
		]);
	});

	it('takes where results go when it names a file or folder, not where others send theirs', () => {
		expect(instructions('Results go in reports/remote_wellbeing.ipynb. Applications go to jobs@example.com. We go to Lisbon in May.')).toEqual([
			'Results go in reports/remote_wellbeing.ipynb.'
		]);
	});

	it('takes a ban among other instructions, not one alone that may be an answer', () => {
		expect(instructions("Three new features at most. No deep learning, the team can't maintain it.", 'No other IRAs. The deadline is April 15, right? No fever, just a cough.')).toEqual([
			'Three new features at most.',
			"No deep learning, the team can't maintain it."
		]);
	});
});

describe("extractFacts takes a user's yes to a proposal as what it accepts", () => {
	const rows: FactSource[] = [
		{ seq: 1, role: 'user', content: 'Do that.' },
		{ seq: 2, role: 'assistant', content: 'That band is crowded too. I’d fix the 5 GHz band to channel **36** and leave out the DFS channels.' },
		{ seq: 3, role: 'user', content: 'Do that. The admin page is on the router.' }
	];

	it('adds the proposal to the yes, and holds it in a summary that says what was agreed', () => {
		const said = extractFacts(rows).filter((fact) => fact.class === 'instruction');
		expect(said.map((fact) => `${fact.seq}: ${fact.text}`)).toEqual(['1: Do that.', '3: Do that: fix the 5 GHz band to channel 36 and leave out the DFS channels.']);
		const lost = (summary: string) => checkFacts(rows, summary).lost.filter((fact) => fact.seq === 3 && fact.class === 'instruction');
		expect(lost('The user agreed to fix the 5 GHz band to channel 36 and to leave out the DFS channels.')).toEqual([]);
		expect(lost('Do that.')).toHaveLength(1);
	});

	it('keys an instruction of small words only by all of them', () => {
		expect(instructionKey('Do that.')).toBe('do that');
		expect(instructionKey('Never do that.')).toBe('never');
	});
});
