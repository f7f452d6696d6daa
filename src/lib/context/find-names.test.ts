import { describe, expect, it } from 'vitest';
import { extractFacts, factKey } from './extract-facts';

const names = (content: string) =>
	extractFacts([{ seq: 1, role: 'assistant', content }])
		.filter((fact) => fact.class === 'name')
		.map((fact) => fact.text);

describe('extractFacts takes a name whole', () => {
	it('takes a name with its model or edition number, and the words after it', () => {
		expect(names('Put a FRITZ!Repeater 3000 AX in the attic, where Leo plays on a PlayStation 5; compare with TREC DL 2019 and Ao 26 Vegan Food Project.')).toEqual([
			'FRITZ!Repeater 3000 AX',
			'Leo',
			'PlayStation 5',
			'TREC DL 2019',
			'Ao 26 Vegan Food Project'
		]);
		// A number after a plain word that begins a sentence, or alone, is no name.
		expect(names('Rated 9.1 by guests. In 2019 it opened.')).toEqual([]);
	});

	it('takes the names a tool’s output quotes, and no other capitalised words of it', () => {
		const tool = "[14:22:09]: Certificate 'Apple Distribution: Lumen Labs GmbH (8KQ2J7X4TP)' has expired\nBuild Failed On Runner Ubuntu";
		expect(extractFacts([{ seq: 1, role: 'tool', content: tool }]).filter((fact) => fact.class === 'name').map((fact) => fact.text)).toEqual(['Apple Distribution', 'Lumen Labs GmbH']);
	});

	it('takes a product line written with a slash after its maker’s name', () => {
		expect(names("A hydrolysed food such as Hill's z/d or Royal Canin; Tesco w/o sugar.")).toEqual(["Hill's z/d", 'Royal Canin', 'Tesco']);
	});

	it('takes what a code stands for, in parentheses after it, but not a remark', () => {
		expect(names('The panel would be PE10 (Earth system science), and AF (atrial fibrillation) counts; the PR (see below) waits.')).toEqual(['Earth system science', 'atrial fibrillation', 'AF']);
	});

	it('leaves a model number to its name, not a number of its own', () => {
		expect(extractFacts([{ seq: 1, role: 'user', content: 'Our baseline is TREC DL 2019, run on a Volkswagen Golf 1.4 TSI.' }]).map((fact) => `${fact.class}: ${fact.text}`)).toEqual([
			'name: TREC DL 2019',
			'name: Volkswagen Golf 1.4 TSI'
		]);
	});

	it('does not run a name across a fact taken before it', () => {
		expect(names('We told Studio Kiln INV-2025-021 Invoice is late.')).toEqual(['Studio Kiln', 'Invoice']);
	});

	it('takes the kind of thing a name is given to, and keys it as a summary that holds it reads it', () => {
		const facts = extractFacts([{ seq: 1, role: 'assistant', content: "That is the Alfredson protocol; pool the results with Rubin's rules." }]).filter((fact) => fact.class === 'name');
		expect(facts.map((fact) => fact.text)).toEqual(['Alfredson protocol', "Rubin's rules"]);
		for (const fact of facts) expect(fact.key).toBe(factKey('name', fact.text));
	});
});
