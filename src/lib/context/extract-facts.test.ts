import { describe, expect, it } from 'vitest';
import { extractFacts, factKey, type FactSource } from './extract-facts';

const user = (seq: number, content: string): FactSource => ({ seq, role: 'user', content });
const assistant = (seq: number, content: string): FactSource => ({ seq, role: 'assistant', content });
const found = (sources: FactSource[]) => extractFacts(sources).map((fact) => `${fact.class}: ${fact.text}`);

describe('extractFacts', () => {
	it('finds every class of fact in a debugging conversation, where each was first said', () => {
		const facts = extractFacts([
			user(1, 'It crashes in src/checkout/cart.ts when calling `applyDiscount` with an expired coupon. Logs: https://logs.example.com/svc?id=42. Please never push directly to main. Maria Keller reported it on March 3, 2025. It listens on port 8443. Mail dev.lead@example.org.'),
			assistant(2, 'The call to computeTotal(cart, coupon) fails. The timeout is 250 ms and the budget is $4,500; cart.ts again.')
		]);
		const text = facts.map((fact) => `${fact.class}: ${fact.text} @${fact.seq}`);
		expect(text).toEqual(
			expect.arrayContaining([
				'path: src/checkout/cart.ts @1',
				'identifier: applyDiscount @1',
				'url: https://logs.example.com/svc?id=42 @1',
				'instruction: Please never push directly to main. @1',
				'name: Maria Keller @1',
				'number: March 3, 2025 @1',
				'number: port 8443 @1',
				'email: dev.lead@example.org @1',
				'identifier: computeTotal() @2',
				'number: 250 ms @2',
				'number: $4,500 @2',
				'path: cart.ts @2'
			])
		);
	});

	it('keeps a fact once, where it was first said', () => {
		expect(found([user(1, 'Open src/app.ts please.'), assistant(2, 'I opened src/app.ts.')]).filter((fact) => fact.includes('src/app.ts'))).toEqual(['path: src/app.ts']);
	});

	it("takes the user's instructions, not the assistant's sentences or the user's questions", () => {
		const facts = found([user(1, "Don't touch the payment_gateway module. Should we always retry?"), assistant(2, 'You must never do that, I always check.')]);
		expect(facts.filter((fact) => fact.startsWith('instruction'))).toEqual(["instruction: Don't touch the payment_gateway module."]);
	});

	it('leaves out plain words that start sentences and a lone small number', () => {
		expect(found([user(1, 'Thanks. Sure, we have 3 of them here. Looks good.')])).toEqual([]);
	});

	it('takes a capitalised word at a sentence start for a name only when it is written so elsewhere too', () => {
		const facts = found([user(1, 'Deploy it after Ingrid says so. Never on Fridays.'), assistant(2, 'Ingrid agreed. Mock answers stay.')]);
		expect(facts.filter((fact) => fact.startsWith('name'))).toEqual(['name: Ingrid']);
	});

	it('reads a summary it replaces without its headings', () => {
		expect(found([{ seq: 1, role: 'user', kind: 'summary', content: 'Summary of the earlier conversation:\n## Goal\n- the staging server is https://staging.example.com' }])).toEqual(['url: https://staging.example.com']);
	});

	it('reads no code inside fences', () => {
		expect(found([assistant(1, 'Here:\n```ts\nconst fooBar = require("x/y/z.js");\n```\nDone.')])).toEqual([]);
	});
});

describe('extractFacts on names beyond ASCII', () => {
	it('reads capitals of every script, and a run of a name across connectors and punctuation', () => {
		const names = found([user(1, 'We met Åsa Öberg in Łódź – near Ulica Piotrkowska – with “Émile” from the Bank of England, and the x-Men crew.')]).filter((fact) => fact.startsWith('name'));
		expect(names).toEqual(['name: Åsa Öberg', 'name: Łódź', 'name: Ulica Piotrkowska', 'name: Émile', 'name: Bank of England']);
	});
});

describe('factKey', () => {
	it('keys a fact written by hand as the extractor keys the same fact found in a conversation', () => {
		const facts = extractFacts([
			user(1, 'Dr. Maria Keller wrote it. Please never push directly to main. It listens on port 8443 and reads src/checkout/cart.ts, see https://logs.example.com/svc?id=42.'),
			assistant(2, 'The call to computeTotal(cart) fails after 250 ms; mail dev.lead@example.org.')
		]);
		expect(new Set(facts.map((fact) => fact.class))).toEqual(new Set(['name', 'instruction', 'number', 'path', 'url', 'identifier', 'email']));
		for (const fact of facts) expect(factKey(fact.class, fact.text)).toBe(fact.key);
		expect(factKey('number', 'port 8443')).toBe('8443');
		expect(factKey('name', 'Dr. Maria Keller')).toBe('maria keller');
	});
});

describe('extractFacts on the facts of everyday conversations', () => {
	const numbers = (text: string) => found([user(1, text)]).filter((fact) => fact.startsWith('number'));
	const identifiers = (text: string) => found([assistant(1, text)]).filter((fact) => fact.startsWith('identifier'));
	const instructions = (...texts: string[]) => found(texts.map((text, i) => user(i + 1, text))).filter((fact) => fact.startsWith('instruction'));

	it('takes a number with its unit written as one word with a hyphen, a square or cubic unit, or a scale word', () => {
		expect(numbers('A 30-minute call, a 5-page synopsis and a 6-year-old dog.')).toEqual(['number: 30-minute', 'number: 5-page', 'number: 6-year']);
		expect(numbers('The flat is 78 m², about 35 m³ of goods.')).toEqual(['number: 78 m²', 'number: 35 m³']);
		expect(numbers('The table has 42 million rows; rates rose by 8 percentage points.')).toEqual(['number: 42 million', 'number: 8 percentage points']);
	});

	it('takes ordinals, rates, settings and payment terms', () => {
		expect(numbers('We live on the 4th floor; take the train on the 8th.')).toEqual(['number: 4th', 'number: 8th']);
		expect(numbers('Keep the default of 50 per page; a client sent limit=100000.')).toEqual(['number: limit=100000', 'number: 50 per page']);
		expect(numbers('They want payment at net 90, we offer net 45. Reviewer 2 asked for part number 24.0125-0184.1.')).toEqual([
			'number: net 90',
			'number: net 45',
			'number: Reviewer 2',
			'number: part number 24.0125-0184.1'
		]);
	});

	it('takes dates given by their month alone', () => {
		expect(numbers('The baby is due in August; sow from late March and make an offer by the end of July, or mid-July.')).toEqual([
			'number: August',
			'number: late March',
			'number: end of July',
			'number: mid-July'
		]);
	});

	it('takes command-line flags, resource names with numbers, bundle ids, module paths, colours and codes of capitals and digits', () => {
		expect(identifiers('Run it with --dry-run on prod-eu-west-1 and db-prod-main-16.')).toEqual(['identifier: --dry-run', 'identifier: prod-eu-west-1', 'identifier: db-prod-main-16']);
		expect(identifiers('Impute with statsmodels.imputation.mice, i.e. chained equations, e.g. five rounds.')).toEqual(['identifier: statsmodels.imputation.mice']);
		expect(identifiers('The app com.lumenlabs.notes of team 8KQ2J7X4TP uses navy #1F3A5F and files a 1099-NEC.')).toEqual([
			'identifier: com.lumenlabs.notes',
			'identifier: #1F3A5F',
			'identifier: 8KQ2J7X4TP',
			'identifier: 1099-NEC'
		]);
	});

	it('leaves out hyphenated words, ordinary codes and short numbers it took for none of these before', () => {
		expect(found([assistant(1, 'An up-to-date, state-of-the-art plan for mid-2024 and covid-19 costs little; PR #482 is open.')]).filter((fact) => fact.startsWith('identifier'))).toEqual([]);
	});

	it('takes a name whose last word is a single capital', () => {
		expect(found([assistant(1, 'The freelance income goes on Schedule C and the backup is Plan B.')]).filter((fact) => fact.startsWith('name'))).toEqual(['name: Schedule C', 'name: Plan B']);
	});

	it("takes the user's requests written as commands, and what the user says must be", () => {
		expect(
			instructions(
				'Book Casa do Príncipe Real. For Porto, find something near Ribeira. Yes, add those.',
				'Our IT lead says any tool must support SSO. I must have the car back by Wednesday.',
				'Send the runbook to the team. Copy of the contract attached. Start date is fixed.'
			)
		).toEqual([
			'instruction: Book Casa do Príncipe Real.',
			'instruction: For Porto, find something near Ribeira.',
			'instruction: Yes, add those.',
			'instruction: Our IT lead says any tool must support SSO.',
			'instruction: I must have the car back by Wednesday.',
			'instruction: Send the runbook to the team.'
		]);
	});
});

describe('extractFacts on codes and addresses in full', () => {
	it('takes an invoice code with all its parts, and an IP address with its port as an address', () => {
		expect(found([user(1, 'Studio Kiln owes €1,150 on INV-2025-021; the gateway dials 10.40.2.17:443 and the console is on 192.168.178.50.')])).toEqual([
			'url: 10.40.2.17:443',
			'url: 192.168.178.50',
			'number: €1,150',
			'number: INV-2025-021',
			'name: Studio Kiln'
		]);
	});
});

describe('extractFacts on numbers without a unit or role', () => {
	it('takes a count of things, a number of two digits or more and a decimal, but not a lone small number', () => {
		expect(found([assistant(1, 'We migrated 37 tables and 3 raised beds; the proxy returns a 504 after 1 try. Rated 9.1 and seen 3,212 times, 2 of them today.')])).toEqual([
			'number: 37 tables',
			'number: 3 raised beds',
			'number: 3,212 times',
			'number: 504',
			'number: 9.1'
		]);
	});

	it('takes the days of the week a plan names, and this computer’s address with its port', () => {
		expect(found([assistant(1, 'I moved the bike sessions to Monday and Thursday and the long run to Sunday; the app runs on localhost:5173/admin.')])).toEqual([
			'url: localhost:5173/admin',
			'number: Monday and Thursday',
			'number: Sunday'
		]);
	});
});
