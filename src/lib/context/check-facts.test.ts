import { describe, expect, it } from 'vitest';
import { addFacts, checkFacts, factsWithin, LOST_FACTS_HEADING } from './check-facts';
import type { FactSource } from './extract-facts';

const rows: FactSource[] = [
	{ seq: 4, role: 'user', content: 'The database listens on port 5432 and the config lives in config/db.yaml. Never drop the `users` table.' },
	{ seq: 5, role: 'assistant', content: 'Noted. Ask Priya Raman about the 2,048 MB limit.' }
];

describe('checkFacts', () => {
	it('counts a fact as kept when the summary holds it, whatever its case, punctuation or Markdown', () => {
		const summary = '**Port 5432** for the DB; config in `Config/DB.yaml`. The user said: never drop the **users** table. Priya Raman knows the 2048MB limit.';
		expect(checkFacts(rows, summary)).toEqual({ total: 6, kept: 6, lost: [] });
	});

	it('lists the facts a summary lost, message by message, with the message each came from', () => {
		const check = checkFacts(rows, 'The user works on a database on port 5432.');
		expect(check.total).toBe(6);
		expect(check.kept).toBe(1);
		expect(check.lost).toEqual([
			{ class: 'identifier', text: 'users', seq: 4 },
			{ class: 'path', text: 'config/db.yaml', seq: 4 },
			{ class: 'instruction', text: 'Never drop the users table.', seq: 4 },
			{ class: 'number', text: '2,048 MB', seq: 5 },
			{ class: 'name', text: 'Priya Raman', seq: 5 }
		]);
	});

	it('does not count a number as kept because a longer one contains it', () => {
		expect(checkFacts([{ seq: 1, role: 'user', content: 'Use port 80.' }], 'It uses port 8080.').lost.filter((fact) => fact.class === 'number').map((fact) => fact.text)).toEqual(['port 80']);
	});

	it('holds an instruction only when one line of the summary has all its words', () => {
		const source: FactSource[] = [{ seq: 1, role: 'user', content: 'Always answer in French.' }];
		expect(checkFacts(source, 'Answer briefly.\nThe user speaks French.').lost).toEqual([{ class: 'instruction', text: 'Always answer in French.', seq: 1 }]);
		expect(checkFacts(source, 'The user wants every answer in French, always.').lost).toEqual([]);
	});
});

describe('adding lost facts', () => {
	const lost = checkFacts(rows, 'Nothing.').lost;

	it('appends them verbatim under their own heading, and the summary then holds them', () => {
		const added = addFacts('Nothing.', lost);
		expect(added).toContain(`${LOST_FACTS_HEADING}\n- users\n- config/db.yaml\n- port 5432\n- Never drop the users table.`);
		expect(checkFacts(rows, added)).toMatchObject({ kept: 6, lost: [] });
	});

	it('takes only what fits the budget, skipping a long fact for shorter ones after it', () => {
		const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
		const chosen = factsWithin(lost, words(`\n\n${LOST_FACTS_HEADING}`) + 10, words);
		expect(chosen.map((fact) => fact.text)).toEqual(['users', 'config/db.yaml', 'port 5432', '2,048 MB']);
		expect(factsWithin(lost, 2, words)).toEqual([]);
	});

	it('passes over a fact that cannot fit without counting it, when told the least a text takes', () => {
		const counted: string[] = [];
		const words = (text: string) => (counted.push(text), text.split(/\s+/).filter(Boolean).length);
		const budget = words(`\n\n${LOST_FACTS_HEADING}`) + 7;
		counted.length = 0;
		const chosen = factsWithin(lost, budget, words, (text) => text.split(/\s+/).filter(Boolean).length);
		expect(chosen.map((fact) => fact.text)).toEqual(['users', 'config/db.yaml', 'port 5432']);
		expect(counted.slice(1)).toEqual(['\n- users', '\n- config/db.yaml', '\n- port 5432']);
	});
});
