// The sidebar's session list: sessions appear as they are created, and can be renamed,
// pinned to the top and searched by title or content, with changes kept across reloads.
import { expect, test, type Page } from '@playwright/test';
import {
	messageBody,
	newSession,
	openApp,
	sendMessage,
	sessionLinks,
	sidebar,
	userMessages,
	waitForAnswer
} from './helpers';

const ALPHA = 'Alpha: how do apples ripen?';
const BRAVO = 'Bravo: tips for bicycle repair';
const CHARLIE = 'Charlie: the history of canals';

/** Creates one session per title (most recent last), each with a complete answer. */
async function createSessions(page: Page, titles: string[]): Promise<void> {
	await openApp(page);
	for (const [i, title] of titles.entries()) {
		if (i > 0) await newSession(page);
		await sendMessage(page, title);
		await waitForAnswer(page);
	}
	// Most recently active first.
	await expect(sessionLinks(page)).toHaveText([...titles].reverse());
}

function row(page: Page, title: string | RegExp) {
	return sidebar(page)
		.getByRole('listitem')
		.filter({ has: page.getByRole('link', { name: title }) });
}

test('rename a session from the sidebar; Escape cancels; the title survives a reload', async ({ page }) => {
	await createSessions(page, [ALPHA, BRAVO, CHARLIE]);

	await row(page, BRAVO).getByRole('button', { name: 'Rename' }).click();
	const input = sidebar(page).getByRole('textbox', { name: 'Session title' });
	await expect(input).toBeFocused();
	await expect(input).toHaveValue(BRAVO);
	await input.fill('Bike maintenance');
	await input.press('Enter');
	await expect(input).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText([CHARLIE, 'Bike maintenance', ALPHA]);

	// Escape throws the edit away.
	await row(page, ALPHA).getByRole('button', { name: 'Rename' }).click();
	await input.fill('Should not stick');
	await input.press('Escape');
	await expect(input).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText([CHARLIE, 'Bike maintenance', ALPHA]);

	await page.reload();
	await expect(sessionLinks(page)).toHaveText([CHARLIE, 'Bike maintenance', ALPHA]);
	// The renamed session still holds its conversation.
	await sidebar(page).getByRole('link', { name: 'Bike maintenance' }).click();
	await expect(messageBody(userMessages(page))).toHaveText([BRAVO]);
});

test('pinning a session moves it to the top and survives a reload', async ({ page }) => {
	await createSessions(page, [ALPHA, BRAVO, CHARLIE]);
	const pin = row(page, ALPHA).getByRole('button', { name: 'Pin' });
	await expect(pin).toHaveAttribute('aria-pressed', 'false');

	await pin.click();
	await expect(pin).toHaveAttribute('aria-pressed', 'true');
	await expect(sessionLinks(page)).toHaveText([/Alpha/, CHARLIE, BRAVO]);
	await expect(row(page, CHARLIE).getByRole('button', { name: 'Pin' })).toHaveAttribute('aria-pressed', 'false');

	// New activity elsewhere does not push the pinned session down.
	await sidebar(page).getByRole('link', { name: BRAVO }).click();
	await expect(messageBody(userMessages(page))).toHaveText([BRAVO]);
	await sendMessage(page, 'One more question about spokes');
	await waitForAnswer(page);
	await expect(sessionLinks(page)).toHaveText([/Alpha/, BRAVO, CHARLIE]);

	await page.reload();
	await expect(sessionLinks(page)).toHaveText([/Alpha/, BRAVO, CHARLIE]);
	await expect(row(page, ALPHA).getByRole('button', { name: 'Pin' })).toHaveAttribute('aria-pressed', 'true');

	// Unpinning returns it to its place by activity.
	await row(page, ALPHA).getByRole('button', { name: 'Pin' }).click();
	await expect(row(page, ALPHA).getByRole('button', { name: 'Pin' })).toHaveAttribute('aria-pressed', 'false');
	await expect(sessionLinks(page)).toHaveText([BRAVO, CHARLIE, ALPHA]);
});

test('search filters sessions by title and by message content', async ({ page }) => {
	await createSessions(page, [ALPHA, BRAVO]);
	// A second message whose words are in no title, only in the content.
	await sendMessage(page, 'My spare inner tube is from Zeppelinwerk');
	await waitForAnswer(page);
	await newSession(page);
	await sendMessage(page, CHARLIE);
	await waitForAnswer(page);
	await expect(sessionLinks(page)).toHaveText([CHARLIE, BRAVO, ALPHA]);

	const search = sidebar(page).getByRole('searchbox', { name: 'Search sessions' });

	await search.fill('apples');
	await expect(sessionLinks(page)).toHaveText([ALPHA]);

	await search.fill('ZEPPELINWERK');
	await expect(sessionLinks(page)).toHaveText([BRAVO]);

	await search.fill('nothing matches this');
	await expect(sessionLinks(page)).toHaveCount(0);
	await expect(sidebar(page)).toContainText('No session matches.');

	await search.fill('');
	await expect(sessionLinks(page)).toHaveText([CHARLIE, BRAVO, ALPHA]);
});
