// Opening a search result takes the reader to the matching message wherever it is: among the
// messages a compaction took out of the context (shown under its marker for the purpose), and
// from a click on the result's snippet as from its title.
import type { Page } from '@playwright/test';
import { expect, test } from './test-base';
import { openApp, sessionLinks, sidebar, transcript } from './helpers';
import { writeRows, type SeedMessage } from './seed-rows';

test.use({ viewport: { width: 1366, height: 850 } });

const LENGTH = 100;
/** Messages 0 … COMPACTED - 1 were compacted; the summary sits between them and the rest. */
const COMPACTED = 60;
const MATCH_SEQ = 30;
const FILLER = 'The tide came in over the breakwater while the crew checked the moorings, counted the crates twice and wrote the figures into the ledger by the lamp.';

/** A session whose first 60 messages a compaction took out of the context, the word "Zanzibarian" in one of them; and a short one. */
async function seed(page: Page): Promise<void> {
	const messages: SeedMessage[] = [];
	for (let seq = 0; seq < LENGTH; seq++) {
		const content = seq === MATCH_SEQ ? `We loaded the Zanzibarian cloves at dawn. ${FILLER}` : `Entry ${seq}. ${FILLER} ${FILLER}`;
		messages.push({ session: 'harbour', seq, content, fields: seq < COMPACTED ? { active: 0, compacted_by: 'c1' } : {} });
	}
	const marker = { id: 'c1', kind: 'summarize', reason: 'manual', before_tokens: 9000, after_tokens: 3000, messages_removed: COMPACTED, at: Date.now() };
	messages.push({ session: 'harbour', seq: COMPACTED - 0.5, content: 'Summary of the conversation so far: the crew logged entries about the tide.', fields: { role: 'user', kind: 'summary', compaction: marker } });
	messages.push({ session: 'garden', seq: 0, content: 'Which roses climb a north wall?' }, { session: 'garden', seq: 1, content: 'The Quillwort rambler does well on a north wall.' });
	await writeRows(page, [{ id: 'harbour', title: 'Harbour log', messages: LENGTH }, { id: 'garden', title: 'Garden notes', messages: 2 }], messages);
}

const searchBox = (page: Page) => sidebar(page).getByRole('searchbox', { name: 'Search sessions' });

test('a result whose message was compacted opens with the compacted messages shown, scrolled to the match, outlined and highlighted', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await page.reload();
	await searchBox(page).fill('zanzibarian');
	await expect(sessionLinks(page)).toHaveText(['Harbour log']);
	await expect(sidebar(page).getByLabel('Matching message')).toContainText('We loaded the Zanzibarian cloves');

	await sessionLinks(page).first().click();
	await expect(page).toHaveURL(/\/s\/harbour$/);
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await expect(marker.getByRole('button', { name: 'Hide compacted messages' })).toHaveAttribute('aria-expanded', 'true');
	const found = transcript(page).locator('article[data-search-match]');
	await expect(found).toContainText('Zanzibarian cloves');
	const originals = marker.getByRole('region', { name: 'Compacted messages' });
	await expect(originals.locator('article[data-search-match]')).toHaveCount(1);
	await expect(found).toBeInViewport();
	// Still there once every compacted message is drawn.
	await expect(originals).toHaveAttribute('aria-busy', 'false');
	await expect(found).toBeInViewport();
	await expect.poll(() => page.evaluate(() => CSS.highlights.get('search-match')?.size)).toBe(1);
});

test('a click on a result\'s snippet opens the session at the match, as a click on its title does', async ({ page }) => {
	await openApp(page);
	await seed(page);
	await page.reload();
	await searchBox(page).fill('quillwort');
	await expect(sessionLinks(page)).toHaveText(['Garden notes']);
	await sidebar(page).getByLabel('Matching message').click();
	await expect(page).toHaveURL(/\/s\/garden$/);
	const found = transcript(page).locator('article[data-search-match]');
	await expect(found).toContainText('Quillwort rambler');
	await expect(found).toBeInViewport();
});
