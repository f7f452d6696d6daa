import { describe, expect, it } from 'vitest';
import { cleanModelTitle, MAX_TITLE_CHARS, TITLE_EXCERPT_CHARS, TITLE_INSTRUCTIONS, titleRequestMessages } from './title-request';

describe('the title request', () => {
	it('carries the first message and the first answer only, each cut short', () => {
		const long = 'word '.repeat(2000);
		const [system, user] = titleRequestMessages(`  ${long}`, 'A short answer.');
		expect(system).toEqual({ role: 'system', content: TITLE_INSTRUCTIONS });
		expect(user.role).toBe('user');
		expect(user.content.startsWith('First message:\nword word')).toBe(true);
		expect(user.content).toContain('…\n\nFirst answer:\nA short answer.');
		expect(user.content.length).toBeLessThan(2 * TITLE_EXCERPT_CHARS + 100);
	});
});

describe('a title from the model’s reply', () => {
	it.each([
		['Trip to Lisbon', 'Trip to Lisbon'],
		['"Trip to Lisbon."', 'Trip to Lisbon'],
		['**“Trip to Lisbon”**', 'Trip to Lisbon'],
		['# Trip to Lisbon\n\nThis conversation is about a trip.', 'Trip to Lisbon'],
		['Title: Planning a *weekend* in `Lisbon`!', 'Planning a weekend in Lisbon'],
		['/title Trip to Lisbon', 'Trip to Lisbon'],
		['- [Trip to Lisbon](https://example.com)', 'Trip to Lisbon'],
		["«Voyage à Lisbonne».", 'Voyage à Lisbonne'],
		['<think>The user asks about Lisbon.</think>\nLisbon weekend', 'Lisbon weekend'],
		['  Tabs\tand\u0007 bells\u202E  ', 'Tabs and bells'],
		['snake_case names', 'snake_case names'],
		['リスボン旅行の計画。', 'リスボン旅行の計画']
	])('%j → %j', (reply, title) => {
		expect(cleanModelTitle(reply)).toBe(title);
	});

	it('is nothing when nothing is left', () => {
		for (const reply of ['', '   ', '""', '...', '```\n```', '<think>only thoughts']) expect(cleanModelTitle(reply), reply).toBeNull();
	});

	it('is at most MAX_TITLE_CHARS, cut at a word', () => {
		const title = cleanModelTitle('A very long title that goes on and on about everything the conversation touched, far past any sidebar')!;
		expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
		expect(title).toMatch(/^A very long title .* [a-z]+…$/);
		expect(cleanModelTitle('x'.repeat(200))).toBe(`${'x'.repeat(MAX_TITLE_CHARS - 1)}…`);
	});
});
