// A tool call in the transcript is one row: closed, its tool and a short status; opened, the
// arguments the model chose and the result. Sessions are written straight into IndexedDB, as
// earlier turns left them (the live call, with its progress bar, is in tool-servers.spec.ts).
import type { Page } from '@playwright/test';
import { expect, test } from './test-base';
import { openApp, sessionLinks, sidebar, transcript } from './helpers';
import { writeRows, type SeedMessage } from './seed-rows';
import { expectNoSeriousIssues } from './accessibility';

const answer = (seq: number, content: string, calls?: Array<[string, string, object]>): SeedMessage => ({
	session: 'tools',
	seq,
	content,
	fields: { role: 'assistant', ...(calls ? { tool_calls: calls.map(([id, name, args]) => ({ id, name, arguments: JSON.stringify(args) })) } : {}) }
});
const result = (seq: number, callId: string, content: string, fields: object = {}): SeedMessage => ({ session: 'tools', seq, content, fields: { role: 'tool', tool_call_id: callId, ...fields } });

/** A session of two answers that called tools, the second reusing the first one's call id, as some models do. */
async function seed(page: Page): Promise<void> {
	const messages: SeedMessage[] = [
		{ session: 'tools', seq: 0, content: 'Add 2 and 3, then look up the weather in Oslo.' },
		answer(1, '', [['call_1', 'get-sum', { a: 2, b: 3 }], ['call_2', 'weather', { city: 'Oslo' }]]),
		result(2, 'call_1', 'The sum of 2 and 3 is 5.'),
		result(3, 'call_2', 'The user denied this tool call.', { tool_result: { server: 'Forecasts', is_error: true, parts: [{ type: 'note', text: 'You denied this tool call.' }] } }),
		answer(4, 'The sum is 5. You did not let me look up the weather.'),
		{ session: 'tools', seq: 5, content: 'Find the quince recipe.' },
		answer(6, '', [['call_1', 'lookup', { query: 'quince' }]]),
		result(7, 'call_1', 'Tool error: the Zamboanga recipe server went away'),
		answer(8, 'The recipe server did not answer.')
	];
	await writeRows(page, [{ id: 'tools', title: 'Sums and recipes', messages: messages.length }], messages);
}

test('each tool call is one closed row with its tool and status; opened, its own arguments and its result', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await page.reload();
	await sessionLinks(page).filter({ hasText: 'Sums and recipes' }).click();
	const rows = transcript(page).getByRole('group', { name: /^Tool call / });
	await expect(rows).toHaveCount(3);
	const toggles = rows.getByRole('button', { expanded: false });
	await expect(toggles).toHaveText([/get-sum\s*done/, /weather\s*denied/, /lookup\s*failed/]);
	// Closed: no arguments, no result, and no label or line of its own around the row.
	await expect(transcript(page).getByText('The sum of 2 and 3 is 5.')).toBeHidden();
	await expect(transcript(page).getByLabel('Arguments of get-sum')).toBeHidden();
	await expect(transcript(page).getByText('Tool result', { exact: true })).toBeHidden();
	await expect(transcript(page)).not.toContainText('Called');

	const sum = transcript(page).getByRole('group', { name: 'Tool call get-sum' });
	await sum.getByRole('button', { name: /get-sum/ }).click();
	await expect(sum.getByRole('button', { name: /get-sum/ })).toHaveAttribute('aria-expanded', 'true');
	await expect(sum.getByLabel('Arguments of get-sum')).toHaveText(JSON.stringify({ a: 2, b: 3 }, null, 2));
	await expect(sum.getByText('The sum of 2 and 3 is 5.')).toBeVisible();

	// The later call of the same id shows its own arguments and its error.
	const lookup = transcript(page).getByRole('group', { name: 'Tool call lookup' });
	await lookup.getByRole('button', { name: /lookup/ }).click();
	await expect(lookup.getByLabel('Arguments of lookup')).toHaveText(JSON.stringify({ query: 'quince' }, null, 2));
	await expect(lookup.getByText('Tool error: the Zamboanga recipe server went away')).toBeVisible();
	const weather = transcript(page).getByRole('group', { name: 'Tool call weather' });
	await weather.getByRole('button', { name: /weather/ }).click();
	await expect(weather.getByText('You denied this tool call.')).toBeVisible();
	await expectNoSeriousIssues(page, '[role="log"]');

	// Closed again with a second press.
	await sum.getByRole('button', { name: /get-sum/ }).click();
	await expect(sum.getByText('The sum of 2 and 3 is 5.')).toBeHidden();
});

test('a search result inside a tool’s result opens its row at the match', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await page.reload();
	await sidebar(page).getByRole('searchbox', { name: 'Search sessions' }).fill('zamboanga');
	await sidebar(page).getByLabel('Matching message').first().click();
	const lookup = transcript(page).getByRole('group', { name: 'Tool call lookup' });
	await expect(lookup.getByRole('button', { name: /lookup/ })).toHaveAttribute('aria-expanded', 'true');
	await expect(lookup.getByText('Tool error: the Zamboanga recipe server went away')).toBeInViewport();
});
