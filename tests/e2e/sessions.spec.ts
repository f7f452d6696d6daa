// The sidebar's session list: sessions appear as they are created, and can be renamed,
// pinned to the top and searched by title or content, with changes kept across reloads.
import { expect, test, type Page } from './test-base';
import { messageBody, newSession, openApp, openSessionActions, sessionAction, sessionActionItem, sendMessage, sessionLinks, sidebar, userMessages, waitForAnswer } from './helpers';

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

test('rename and pin sessions from their Session actions menu; both survive a reload', async ({ page }) => {
	await createSessions(page, [ALPHA, BRAVO, CHARLIE]);
	const actions = (title: string | RegExp) => row(page, title).getByRole('button', { name: 'Session actions' });

	// Rename: Enter saves.
	await sessionAction(page, row(page, BRAVO), 'Rename');
	await expect(page.getByRole('menu', { name: 'Session actions' })).toBeHidden();
	const input = sidebar(page).getByRole('textbox', { name: 'Session title' });
	await expect(input).toBeFocused();
	await expect(input).toHaveValue(BRAVO);
	await input.fill('Bike maintenance');
	await input.press('Enter');
	await expect(input).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText([CHARLIE, 'Bike maintenance', ALPHA]);
	// Keyboard users land back on the button they started from.
	await expect(actions('Bike maintenance')).toBeFocused();

	// Escape throws the edit away.
	await sessionAction(page, row(page, ALPHA), 'Rename');
	await input.fill('Should not stick');
	await input.press('Escape');
	await expect(input).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText([CHARLIE, 'Bike maintenance', ALPHA]);

	// Pin: the oldest session moves to the top, under "Pinned".
	let menu = await openSessionActions(page, row(page, ALPHA));
	await expect(sessionActionItem(menu, 'Pin')).toHaveAttribute('aria-checked', 'false');
	await sessionActionItem(menu, 'Pin').click();
	await expect(menu).toBeHidden();
	await expect(actions(ALPHA)).toBeFocused();
	await expect(sessionLinks(page)).toHaveText([/Alpha/, CHARLIE, 'Bike maintenance']);
	await expect(sidebar(page).getByRole('heading', { name: 'Pinned' })).toBeVisible();
	menu = await openSessionActions(page, row(page, ALPHA));
	await expect(sessionActionItem(menu, 'Pin')).toHaveAttribute('aria-checked', 'true');
	// Escape closes the menu, back on its button.
	await page.keyboard.press('Escape');
	await expect(menu).toBeHidden();
	await expect(actions(ALPHA)).toBeFocused();
	menu = await openSessionActions(page, row(page, CHARLIE));
	await expect(sessionActionItem(menu, 'Pin')).toHaveAttribute('aria-checked', 'false');
	await page.keyboard.press('Escape');

	// New activity elsewhere does not push the pinned session down.
	await sidebar(page).getByRole('link', { name: 'Bike maintenance' }).click();
	await expect(messageBody(userMessages(page))).toHaveText([BRAVO]);
	await sendMessage(page, 'echo: One more note about spokes');
	await waitForAnswer(page);
	await expect(sessionLinks(page)).toHaveText([/Alpha/, 'Bike maintenance', CHARLIE]);

	await page.reload();
	await expect(sessionLinks(page)).toHaveText([/Alpha/, 'Bike maintenance', CHARLIE]);
	menu = await openSessionActions(page, row(page, ALPHA));
	await expect(sessionActionItem(menu, 'Pin')).toHaveAttribute('aria-checked', 'true');
	// The renamed session still holds its conversation.
	await expect(messageBody(userMessages(page))).toHaveText([BRAVO, 'echo: One more note about spokes']);

	// Unpinning returns it to its place by activity (the menu is open from above).
	await sessionActionItem(menu, 'Pin').click();
	await expect(sessionLinks(page)).toHaveText(['Bike maintenance', CHARLIE, ALPHA]);
	await expect(sidebar(page).getByRole('heading', { name: 'Pinned' })).toHaveCount(0);
	await expect(sidebar(page).getByRole('heading', { name: 'Today' })).toBeVisible();

	// Leaving the title box with Tab keeps what was typed; nothing typed is thrown away.
	await sessionAction(page, row(page, CHARLIE), 'Rename');
	await input.fill('Canals, briefly');
	await input.press('Tab');
	await expect(input).toHaveCount(0);
	await expect(sessionLinks(page)).toHaveText(['Bike maintenance', 'Canals, briefly', ALPHA]);
});

test('search filters sessions by title and by message content', async ({ page }) => {
	await createSessions(page, [ALPHA, BRAVO]);
	// A second message whose words are in no title, only in the content (echo: answers at once).
	await sendMessage(page, 'echo: My spare inner tube is from Zeppelinwerk');
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

test('a link to a session that does not exist says so', async ({ page }) => {
	await page.goto('/s/no-such-session');
	await expect(page.getByRole('alert')).toContainText('This session no longer exists.');
	await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
	await page.getByRole('link', { name: 'Start a new session' }).click();
	await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
});
