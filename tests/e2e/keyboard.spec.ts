// The app by keyboard alone: a skip link straight to the Message box, the Message box focused
// on load and after opening a session, the sessions list as one Tab stop with arrows inside,
// and Ctrl+K reaching any session.
import { expect, test, type Page } from './test-base';
import { newSession, openApp, sendAndWait, sessionIdFromUrl, sessionLinks, sidebar } from './helpers';

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** Focus back to the top of the page, as after a fresh load: the next Tab is the page's first stop. */
async function toTop(page: Page): Promise<void> {
	await page.evaluate(() => {
		document.body.tabIndex = -1;
		document.body.focus();
		document.body.removeAttribute('tabindex');
	});
}

async function makeSessions(page: Page, titles: string[]): Promise<string[]> {
	const ids: string[] = [];
	for (const title of titles) {
		await newSession(page);
		await sendAndWait(page, title);
		ids.push(sessionIdFromUrl(page));
	}
	return ids;
}

/** What Tab reaches, from the top of the page, until the Message box (at most `limit` presses). */
async function tabStopsToMessageBox(page: Page, limit = 60): Promise<string[]> {
	await toTop(page);
	const stops: string[] = [];
	for (let i = 0; i < limit; i++) {
		await page.keyboard.press('Tab');
		const stop = await page.evaluate(() => {
			const el = document.activeElement as HTMLElement;
			const inList = el.closest('li[aria-posinset]') ? 'session row: ' : '';
			return `${inList}${el.id === 'message-input' ? 'Message box' : (el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName)}`;
		});
		stops.push(stop);
		if (stop === 'Message box') return stops;
	}
	throw new Error(`The Message box was not reached in ${limit} Tab presses: ${stops.join(' | ')}`);
}

test('the Message box has focus on load and after a session is opened by Enter or by a click; a skip link leads to it', async ({ page }) => {
	await openApp(page);
	await expect(messageBox(page)).toBeFocused();
	const [first, second] = await makeSessions(page, ['echo: first', 'echo: second']);

	await page.reload();
	await expect(messageBox(page)).toBeFocused();

	// Enter on a session in the list opens it, and typing goes on in its Message box.
	await sessionLinks(page).filter({ hasText: 'echo: first' }).focus();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(new RegExp(`/s/${first}$`));
	await expect(messageBox(page)).toBeFocused();
	await sessionLinks(page).filter({ hasText: 'echo: second' }).click();
	await expect(page).toHaveURL(new RegExp(`/s/${second}$`));
	await expect(messageBox(page)).toBeFocused();

	// The first Tab stop of the page skips the sidebar.
	await toTop(page);
	await page.keyboard.press('Tab');
	const skip = page.getByRole('link', { name: 'Skip to the Message box' });
	await expect(skip).toBeFocused();
	await expect(skip).toBeInViewport();
	await page.keyboard.press('Enter');
	await expect(messageBox(page)).toBeFocused();
	await expect(page).toHaveURL(new RegExp(`/s/${second}$`));

	// Other pages skip to their content.
	await page.getByRole('link', { name: 'Settings', exact: true }).click();
	// Once the page is drawn (it loads on first use), its first Tab stop is the skip link.
	await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	await toTop(page);
	await page.keyboard.press('Tab');
	await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('main')).toBeFocused();
});

test('the sessions list is one Tab stop however many sessions there are, with arrow keys inside', async ({ page }) => {
	await openApp(page);
	await makeSessions(page, ['echo: one']);
	const withOne = await tabStopsToMessageBox(page);
	await makeSessions(page, ['echo: two', 'echo: three', 'echo: four', 'echo: five', 'echo: six']);
	const withSix = await tabStopsToMessageBox(page);
	expect(withSix.filter((stop) => stop.startsWith('session row: '))).toHaveLength(1);
	expect(withSix).toHaveLength(withOne.length);

	const rows = sidebar(page).getByRole('listitem');
	await sessionLinks(page).first().focus();
	await page.keyboard.press('ArrowDown');
	await expect(sessionLinks(page).nth(1)).toBeFocused();
	await page.keyboard.press('ArrowRight');
	await expect(rows.nth(1).getByRole('button', { name: 'Session actions' })).toBeFocused();
});

test('Ctrl+K reaches the session search from anywhere; Enter opens the first match and typing goes on in it', async ({ page }) => {
	await openApp(page);
	const [tides] = await makeSessions(page, ['echo: tides and moons', 'echo: rivers', 'echo: mountains']);
	await expect(messageBox(page)).toBeFocused();
	await page.keyboard.press('ControlOrMeta+k');
	const search = sidebar(page).getByRole('searchbox', { name: 'Search sessions' });
	await expect(search).toBeFocused();
	await page.keyboard.type('tides');
	await expect(sessionLinks(page)).toHaveText(['echo: tides and moons']);
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(new RegExp(`/s/${tides}$`));
	await expect(messageBox(page)).toBeFocused();
});
