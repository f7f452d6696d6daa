// Prompts and Assistants open at once, the first time in a visit too: their code and the rows
// they show first load ahead (in idle time after start-up, and when their link is pointed at or
// focused), so a click finds everything there: the page comes with its rows in its first frame,
// even once the app's server no longer answers.
import { expect, test, type Page } from './test-base';
import { openApp } from './helpers';
import { writeStoreRows } from './seed-rows';

const ROWS = 30;

/** Writes ROWS prompts and ROWS assistants straight into the default profile's database, then reloads the app. */
async function seed(page: Page): Promise<void> {
	const now = Date.now();
	const n = (i: number) => String(i).padStart(2, '0');
	await writeStoreRows(page, {
		prompts: Array.from({ length: ROWS }, (_, i) => ({ id: `p-${n(i)}`, name: `prompt-${n(i)}`, text: `Prompt ${n(i)}: answer briefly.`, created_at: now, updated_at: now })),
		assistants: Array.from({ length: ROWS }, (_, i) => ({ id: `a-${n(i)}`, name: `Assistant ${n(i)}`, provider: '', model: '', starters: [], created_at: now, updated_at: now }))
	});
	await openApp(page);
}

const link = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sessions' }).getByRole('link', { name, exact: true });

/** How many times the rows of `table` were read ahead (the app marks each read). */
const readsAhead = (page: Page, table: string) => page.evaluate((mark) => performance.getEntriesByName(mark).length, `palimpsest:read-ahead ${table}`);

/** From now on the app's server answers nothing: only what the page has loaded is there. */
const dropServer = (page: Page) => page.route('**/*', (route) => route.abort());

/** Notes, as the page first shows the heading `title`, how many rows its list `list` holds then. */
const noteRowsWithHeading = (page: Page, title: string, list: string) =>
	page.evaluate(
		([title, list]) => {
			const observer = new MutationObserver(() => {
				if (![...document.querySelectorAll('h1')].some((h) => h.textContent === title)) return;
				observer.disconnect();
				(window as unknown as { rowsWithHeading: number }).rowsWithHeading = document.querySelectorAll(`ul[aria-label="${list}"] > li`).length;
			});
			observer.observe(document, { childList: true, subtree: true, characterData: true });
		},
		[title, list]
	);
const rowsWithHeading = (page: Page) => page.evaluate(() => (window as unknown as { rowsWithHeading?: number }).rowsWithHeading);

/** Opens the page `name` from the sidebar and expects it with every row, its rows there as its heading first showed. */
async function openWithRows(page: Page, name: string, list: string): Promise<void> {
	await noteRowsWithHeading(page, name, list);
	await link(page, name).click();
	await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
	await expect(page.getByRole('list', { name: list }).getByRole('listitem')).toHaveCount(ROWS);
	await expect.poll(() => rowsWithHeading(page)).toBeGreaterThanOrEqual(20);
}

test('in idle time after start-up, Prompts and Assistants load with their rows: each opens with them in its first frame, the server gone', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await expect.poll(() => readsAhead(page, 'prompts')).toBeGreaterThan(0);
	await expect.poll(() => readsAhead(page, 'assistants')).toBeGreaterThan(0);
	await dropServer(page);
	await openWithRows(page, 'Prompts', 'Saved prompts');
	await openWithRows(page, 'Assistants', 'Saved assistants');
});

test('on a page never idle, pointing at Assistants or focusing Prompts loads it with its rows ahead of the click', async ({ page }) => {
	// No idle time ever: only the user's signs load a page ahead.
	await page.addInitScript(() => {
		window.requestIdleCallback = () => 0;
	});
	await openApp(page);
	await seed(page);
	await expect.poll(() => readsAhead(page, 'prompts')).toBe(0);
	await expect.poll(() => readsAhead(page, 'assistants')).toBe(0);

	await link(page, 'Assistants').hover();
	await expect.poll(() => readsAhead(page, 'assistants')).toBeGreaterThan(0);
	await link(page, 'Prompts').focus();
	await expect.poll(() => readsAhead(page, 'prompts')).toBeGreaterThan(0);
	await dropServer(page);
	await openWithRows(page, 'Prompts', 'Saved prompts');
	await openWithRows(page, 'Assistants', 'Saved assistants');
});
