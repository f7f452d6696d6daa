// Search over thousands of sessions answers from the full-text index: a word said once, deep
// inside one long session, is found as the user types it, shown with its snippet, and opens
// the session scrolled to that message with the word highlighted. Archived sessions are found
// and marked; CJK text is found by two characters; a new answer is found as soon as it is stored.
import type { Page } from '@playwright/test';
import { expect, test } from './test-base';
import { openApp, sendAndWait, sessionLinks, sidebar, transcript } from './helpers';
import { writeRows, type SeedMessage, type SeedSession } from './seed-rows';

const COUNT = 3000;
const PER_SESSION = 8;
/** The session holding the rare word, its length, and where the word is. */
const TARGET = 1234;
const TARGET_MESSAGES = 200;
const TARGET_SEQ = 20;
const ARCHIVED = 2500;

/** Writes COUNT sessions, a minute apart, with their messages, straight into IndexedDB: the target session is long and says the rare word once. */
async function seed(page: Page): Promise<void> {
	const now = Date.now();
	const words = ['river', 'harbour', 'compile', 'function', 'budget', 'garden', 'letter', 'engine'];
	const sessions: SeedSession[] = [];
	const messages: SeedMessage[] = [];
	for (let i = 0; i < COUNT; i++) {
		const id = `s-${String(i).padStart(5, '0')}`;
		const length = i === TARGET ? TARGET_MESSAGES : PER_SESSION;
		sessions.push({ id, title: `Session ${i}`, at: now - i * 60_000, messages: length, archived: i === ARCHIVED });
		for (let seq = 0; seq < length; seq++) {
			let content = `Message ${seq} about the ${words[(i + seq) % words.length]} and the ${words[(i * 3 + seq) % words.length]}.`;
			if (i === TARGET && seq === TARGET_SEQ) content = 'We tuned the Xylophonic resonator until it rang true.';
			if (i === ARCHIVED && seq === 0) content = 'An archived note about the marzipan ledger.';
			if (i === 77 && seq === 1) content = '我们讨论了全文搜索引擎的设计';
			messages.push({ session: id, seq, content });
		}
	}
	await writeRows(page, sessions, messages);
}

const searchBox = (page: Page) => sidebar(page).getByRole('searchbox', { name: 'Search sessions' });

test('a word said once deep inside one of thousands of sessions is found as it is typed and opens the session at that message', async ({ page }) => {
	test.setTimeout(120_000);
	await openApp(page);
	await seed(page);
	await page.reload();
	await expect(sessionLinks(page).first()).toHaveText('Session 0');

	// The index builds in the background; typing finds the word once its session is indexed.
	await searchBox(page).pressSequentially('xyloph');
	await expect(sessionLinks(page)).toHaveText([`Session ${TARGET}`], { timeout: 60_000 });
	const snippet = sidebar(page).getByLabel('Matching message');
	await expect(snippet).toContainText('We tuned the Xylophonic resonator');
	await expect(snippet.locator('mark')).toHaveText(['Xylophonic']);
	await expect(sidebar(page).getByRole('status', { name: 'Search index' })).toHaveCount(0, { timeout: 60_000 });

	// Enter on the result opens the session at that message, far above its latest ones.
	await sessionLinks(page).first().focus();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(new RegExp(`/s/s-0${TARGET}$`));
	const found = transcript(page).locator('article[data-search-match]');
	await expect(found).toContainText('Xylophonic resonator');
	await expect(found).toBeInViewport();
	await expect.poll(() => page.evaluate(() => CSS.highlights.get('search-match')?.size)).toBe(1);

	// Archived sessions are searched and marked; CJK text is found by two characters; accents fold.
	await searchBox(page).fill('marzipan');
	await expect(sessionLinks(page)).toHaveText([`Session ${ARCHIVED}`]);
	await expect(sidebar(page).getByRole('listitem').getByText('Archived', { exact: true })).toBeVisible();
	await searchBox(page).fill('搜索');
	await expect(sessionLinks(page)).toHaveText(['Session 77']);
	await searchBox(page).fill('XYLÔPHONIC');
	await expect(sessionLinks(page)).toHaveText([`Session ${TARGET}`]);

	// A new answer is found as soon as it is stored.
	await searchBox(page).fill('');
	await sidebar(page).getByRole('button', { name: 'New session' }).click();
	await sendAndWait(page, 'echo: hello there');
	await sendAndWait(page, 'echo: a quixotically novel phrase');
	await searchBox(page).fill('quixotic');
	await expect(sessionLinks(page)).toHaveText(['echo: hello there']);
	await expect(sidebar(page).getByLabel('Matching message').locator('mark').first()).toHaveText('quixotically');
});
