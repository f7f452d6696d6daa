// The session list with 10,000 stored sessions: only a screenful of rows is in the page, yet
// the keyboard reaches any session, the open one is shown and marked, "Select all" means all
// of them, and search finds by title at once and by message content after.
import { expect, test, type Page } from './test-base';
import { openApp, sessionLinks, sidebar, startSelecting } from './helpers';
import { writeRows } from './seed-rows';

const COUNT = 10_000;
/** Sessions whose last message holds a word no title has. */
const CONTENT_HITS = [17, 4321, 9001];

/** Writes COUNT sessions, a minute apart, and a message for a few, straight into IndexedDB. */
async function seed(page: Page): Promise<void> {
	const now = Date.now();
	const id = (i: number) => `s-${String(i).padStart(5, '0')}`;
	const sessions = Array.from({ length: COUNT }, (_, i) => ({ id: id(i), title: `Session ${i}`, at: now - i * 60_000, messages: CONTENT_HITS.includes(i) ? 1 : 0 }));
	await writeRows(page, sessions, CONTENT_HITS.map((i) => ({ session: id(i), seq: 0, content: `Notes on the Quagmirewort ferry, part ${i}` })));
}

const link = (page: Page, i: number) => sidebar(page).getByRole('link', { name: `Session ${i}`, exact: true });
const row = (page: Page, i: number) =>
	sidebar(page).getByRole('listitem').filter({ has: page.getByRole('link', { name: `Session ${i}`, exact: true }) });

test('10,000 sessions: a screenful of rows in the page; arrows, Home and End reach any session; the open one is in view', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await page.reload();
	await expect(sessionLinks(page).first()).toHaveText('Session 0');
	const rows = sidebar(page).getByRole('listitem');
	await expect(rows.first()).toHaveAttribute('aria-setsize', String(COUNT));
	// Said outright, so that a list drawn without bullets is still a list to every screen reader.
	await expect(rows.first()).toHaveAttribute('role', 'listitem');
	await expect(sidebar(page).getByRole('list')).toHaveAttribute('role', 'list');
	await expect.poll(() => rows.count()).toBeLessThan(100);
	await expect(sidebar(page).getByRole('heading').first()).toHaveText('Today');

	await link(page, 0).focus();
	await page.keyboard.press('ArrowDown');
	await expect(link(page, 1)).toBeFocused();
	await page.keyboard.press('End');
	await expect(link(page, COUNT - 1)).toBeFocused();
	await expect(link(page, COUNT - 1)).toBeInViewport();
	await page.keyboard.press('ArrowUp');
	await expect(link(page, COUNT - 2)).toBeFocused();
	// → reaches the focused session's Session actions, ← comes back; the list is one Tab stop.
	await page.keyboard.press('ArrowRight');
	await expect(row(page, COUNT - 2).getByRole('button', { name: 'Session actions' })).toBeFocused();
	await page.keyboard.press('ArrowLeft');
	await expect(link(page, COUNT - 2)).toBeFocused();
	await page.keyboard.press('Tab');
	await expect(page.getByRole('link', { name: 'Chat', exact: true })).toBeFocused();
	// Shift+Tab comes back to the session last focused, scrolled away or not.
	await page.keyboard.press('Shift+Tab');
	await expect(link(page, COUNT - 2)).toBeFocused();
	await page.keyboard.press('Home');
	await expect(link(page, 0)).toBeFocused();
	await expect.poll(() => rows.count()).toBeLessThan(100);
	// Enter opens the focused session.
	await page.keyboard.press('ArrowDown');
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/\/s\/s-00001$/);

	// A session opened by its address is scrolled into view and marked as the current page.
	await page.goto('/s/s-05000');
	await expect(link(page, 5000)).toBeInViewport();
	await expect(link(page, 5000)).toHaveAttribute('aria-current', 'page');
});

test('10,000 sessions: Select all selects every session, not only those on screen; search lists title matches, then content matches', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await page.reload();
	await expect(sessionLinks(page).first()).toHaveText('Session 0');

	await startSelecting(page);
	await row(page, 3).getByRole('checkbox', { name: 'Select' }).check();
	const bar = sidebar(page).getByRole('group', { name: 'Selected sessions' });
	await expect(bar).toContainText('1 selected');
	await bar.getByRole('button', { name: 'Select all' }).click();
	await expect(bar).toContainText(`${COUNT} selected`);
	// A session far down the list is ticked too once it is scrolled to.
	await link(page, 0).focus();
	await page.keyboard.press('End');
	await expect(row(page, COUNT - 1).getByRole('checkbox', { name: 'Select' })).toBeChecked();
	await bar.getByRole('button', { name: 'Clear selection' }).click();
	await expect(bar).toContainText('0 selected');
	await expect(bar.getByRole('button', { name: 'Delete selected' })).toHaveCount(0);
	// Leaving selection mode takes the boxes away.
	await sidebar(page).getByRole('button', { name: 'Select', exact: true }).click();
	await expect(bar).toHaveCount(0);
	await expect(sidebar(page).getByRole('checkbox')).toHaveCount(0);
	await startSelecting(page);

	const search = sidebar(page).getByRole('searchbox', { name: 'Search sessions' });
	await search.fill('session 999');
	await expect(sessionLinks(page).first()).toHaveText('Session 999');
	await expect(sidebar(page).getByRole('listitem').first()).toHaveAttribute('aria-setsize', '11');

	// No title has this word: the sessions whose message has it come from the message scan.
	await search.fill('quagmirewort');
	await expect(sessionLinks(page)).toHaveText(CONTENT_HITS.map((i) => `Session ${i}`));
	await row(page, 17).getByRole('checkbox', { name: 'Select' }).check();
	await bar.getByRole('button', { name: 'Select all' }).click();
	await expect(bar).toContainText(`${CONTENT_HITS.length} selected`);

	await search.fill('');
	await expect(sessionLinks(page).first()).toHaveText('Session 0');
	await expect(sidebar(page).getByRole('listitem').first()).toHaveAttribute('aria-setsize', String(COUNT));
});
