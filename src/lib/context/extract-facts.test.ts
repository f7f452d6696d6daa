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

	it('leaves out plain words that start sentences and numbers without unit or role', () => {
		expect(found([user(1, 'Thanks. Sure, we have 3 options here. Looks good.')])).toEqual([]);
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
