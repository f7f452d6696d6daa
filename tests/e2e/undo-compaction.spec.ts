// Undo compaction in the built app with the offline model: the compacted messages come back to
// the transcript and the next request, the marker says it was undone (in every open tab), and
// no post_compaction is recorded; after a compaction that continued in a new session, Continue
// in the earlier session reopens it.
import { expect, test, type Page } from './test-base';
import { numberIn, openApp, sendAndWait, sessionIdFromUrl, transcript, userMessages } from './helpers';
import { navigate } from './plugin-helpers';

const marker = (page: Page) => transcript(page).getByRole('region', { name: 'Context compacted' });

async function chatThenCompact(page: Page): Promise<void> {
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker(page)).toHaveCount(1);
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(0);
}

test('Undo compaction brings the messages back, the marker says so in every tab, and no post_compaction is recorded', async ({ page, context }) => {
	await openApp(page);
	await chatThenCompact(page);
	const other = await context.newPage();
	await openApp(other, `/s/${sessionIdFromUrl(page)}`);
	await expect(marker(other)).toHaveCount(1);

	await marker(page).getByRole('button', { name: 'Undo compaction' }).click();
	await expect(marker(page).getByRole('status')).toContainText('Compaction undone');
	await expect(marker(page)).toContainText('Undone');
	await expect(marker(page).getByRole('button', { name: 'Undo compaction' })).toHaveCount(0);
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(1);
	// The other tab follows, and offers nothing to undo any more.
	await expect(marker(other)).toContainText('Undone');
	await expect(userMessages(other).filter({ hasText: 'lighthouses' })).toHaveCount(1);
	await expect(marker(other).getByRole('button', { name: 'Undo compaction' })).toHaveCount(0);

	// The next request carries the first message again, and not the summary.
	const answer = await sendAndWait(page, 'And the harbour?');
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const body = page.getByRole('dialog', { name: 'What the model received' }).getByLabel('Request body');
	await expect(body).toContainText('long 400 about lighthouses');
	await expect(page.getByRole('dialog', { name: 'What the model received' }).getByRole('list', { name: 'Request parts' })).not.toContainText('Summary');
	await page.keyboard.press('Escape');

	await navigate(page, 'Plugins');
	const rows = page.getByRole('region', { name: 'Hook log' }).getByRole('row').filter({ has: page.getByRole('cell', { name: 'post_compaction', exact: true }) });
	await expect(rows).toHaveCount(1);
});

test('after a compaction that continued in a new session, Continue in the earlier session reopens it', async ({ page }) => {
	await openApp(page);
	await navigate(page, 'Settings');
	await page.getByRole('checkbox', { name: /Compact in place/ }).uncheck();
	await navigate(page, 'Chat');
	await sendAndWait(page, 'long 400 about lighthouses');
	const earlier = sessionIdFromUrl(page);
	await sendAndWait(page, 'long 400 about tides');
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(marker(page)).toHaveCount(1);
	await expect(page).not.toHaveURL(new RegExp(earlier));
	await expect(marker(page).getByRole('button', { name: 'Undo compaction' })).toHaveCount(0);

	await marker(page).getByRole('button', { name: 'Continue in the earlier session' }).click();
	await expect(page).toHaveURL(new RegExp(`/s/${earlier}$`));
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(1);
	await sendAndWait(page, 'Back where we were');
	expect(sessionIdFromUrl(page)).toBe(earlier);
});

test('Edit summary: the marker says it was edited and the next request carries the edited text', async ({ page }) => {
	await openApp(page);
	await chatThenCompact(page);
	await marker(page).getByRole('button', { name: 'Edit summary' }).click();
	await marker(page).getByRole('textbox', { name: 'Summary' }).fill('EDITED SUMMARY: lighthouses and tides.');
	await marker(page).getByRole('button', { name: 'Save summary' }).click();
	await expect(marker(page)).toContainText('Summary edited');
	await marker(page).getByText('Summary the model sees instead').click();
	await expect(marker(page)).toContainText('EDITED SUMMARY: lighthouses and tides.');

	const answer = await sendAndWait(page, 'What next?');
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const dialog = page.getByRole('dialog', { name: 'What the model received' });
	await expect(dialog.getByLabel('Request body')).toContainText('EDITED SUMMARY: lighthouses and tides.');
	await expect(dialog.getByRole('list', { name: 'Request parts' }).getByRole('listitem').filter({ hasText: 'Summary (compaction)' })).toContainText('EDITED SUMMARY');
});

/** The estimated tokens the meter shows ("1,234 / 32,000 tokens (…)"), once it shows a count. */
function meterTokens(page: Page): Promise<number> {
	return numberIn(page.getByRole('status', { name: 'Context usage' }), /([\d,]+) \/ [\d,]+ tokens/);
}

test('an Undo that would not fit the window asks first, says the next message compacts again, and Cancel keeps things as they are', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'long 2000 about lighthouses');
	await sendAndWait(page, 'long 200 about tides');
	await page.getByRole('button', { name: 'Compact now' }).click();
	const result = page.getByRole('status', { name: 'Compaction result' });
	await expect(result).toContainText(/Context compacted from [\d,]+ to [\d,]+ tokens/);
	const before = await numberIn(result, /from ([\d,]+) to [\d,]+ tokens/);
	const after = await numberIn(result, /from [\d,]+ to ([\d,]+) tokens/);
	// A window (a tenth of it kept for the answer; Settings takes thousands) that holds what the
	// compaction left, not what an undo brings back.
	const windowTokens = Math.round(((before + after) / 2 - 3_200) / 0.9 / 1000) * 1000;
	expect(windowTokens).toBeGreaterThan((after - 3_200) / 0.9);
	expect(windowTokens).toBeLessThan((before - 3_200) / 0.9);
	await navigate(page, 'Settings');
	await page.getByRole('combobox', { name: 'Model name' }).fill('offline-mini');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill(String(windowTokens));
	await page.getByRole('button', { name: 'Set window' }).click();
	await expect(page.getByText(`offline-mini: ${windowTokens.toLocaleString('en')} tokens`)).toBeVisible();
	await navigate(page, 'Chat');
	await expect.poll(() => meterTokens(page)).toBeLessThan(windowTokens);

	await marker(page).getByRole('button', { name: 'Undo compaction' }).click();
	const question = page.getByRole('dialog', { name: 'Undo compaction?' });
	await expect(question).toContainText(`more than the ${windowTokens.toLocaleString('en')}-token window of offline-mini`);
	await expect(question).toContainText('Your next message will then compact the conversation again');
	const undone = await numberIn(question, /about ([\d,]+) tokens/);
	expect(undone).toBeGreaterThan(windowTokens);
	await question.getByRole('button', { name: 'Cancel' }).click();
	await expect(question).toBeHidden();
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(0);
	await expect(marker(page).getByRole('button', { name: 'Undo compaction' })).toBeEnabled();

	await marker(page).getByRole('button', { name: 'Undo compaction' }).click();
	await question.getByRole('button', { name: 'Undo compaction' }).click();
	await expect(marker(page).getByRole('status')).toContainText('Compaction undone');
	await expect(userMessages(page).filter({ hasText: 'lighthouses' })).toHaveCount(1);
	// The meter shows what the question said.
	await expect.poll(() => meterTokens(page)).toBe(undone);

	// As it said: the next message compacts the conversation again, and is answered.
	await sendAndWait(page, 'And the harbour?');
	await expect.poll(() => marker(page).count()).toBeGreaterThanOrEqual(2);
	await expect.poll(() => meterTokens(page)).toBeLessThan(windowTokens);
});
