// Keep in context with the offline model: a kept message survives /compress word for word, out
// of "Show compacted messages", and the next request carries it right after the summary; let go,
// the next compaction folds it. Keeping more than half the model's window asks first.
import { expect, test, type Page } from './test-base';
import { assistantMessages, openApp, sendAndWait, transcript, userMessages } from './helpers';
import { navigate } from './plugin-helpers';

/** Runs /compress, the `count`th compaction of the session, and waits for it to say it compacted. */
async function compress(page: Page, count: number): Promise<void> {
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('/compress');
	await box.press('Enter');
	await expect(transcript(page).getByRole('article', { name: 'Command output' }).filter({ hasText: 'Context compacted' })).toHaveCount(count);
}

/** Gives the offline model a small window in Settings. */
async function shrinkOfflineWindow(page: Page, tokens: number): Promise<void> {
	await navigate(page, 'Settings');
	await page.getByRole('combobox', { name: 'Model name' }).fill('offline-mini');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill(String(tokens));
	await page.getByRole('button', { name: 'Set window' }).click();
	await expect(page.getByText(`offline-mini: ${tokens.toLocaleString('en')} tokens`)).toBeVisible();
	await navigate(page, 'Chat');
}

test('a message kept in context survives /compress as it was and reaches the model right after the summary; let go, it is folded', async ({ page }) => {
	// Four answers and two compactions: a busy machine needs more than the usual minute.
	test.setTimeout(120_000);
	await openApp(page);
	await sendAndWait(page, 'long 150 about lighthouses');
	await sendAndWait(page, 'long 150 about tides');
	await sendAndWait(page, 'long 150 about harbours');
	const kept = userMessages(page).filter({ hasText: 'long 150 about lighthouses' });
	const keep = kept.getByRole('button', { name: 'Keep in context' });
	await expect(keep).toHaveAttribute('aria-pressed', 'false');
	await keep.click();
	await expect(keep).toHaveAttribute('aria-pressed', 'true');
	await expect(kept.getByText('Kept in context', { exact: true })).toBeVisible();
	await expect(page.getByRole('status', { name: 'Context usage' })).toContainText(/· [\d,]+ pinned/);
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('/usage');
	await box.press('Enter');
	await expect(transcript(page).getByRole('article', { name: 'Command output' }).filter({ hasText: 'Model:' })).toContainText(/Kept in context \(pinned\): 1 message, [\d,]+ tokens/);

	await compress(page, 1);
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await expect(marker).toHaveCount(1);
	// The other messages before the last exchange were folded; the kept one is still in the transcript, as it was.
	await expect(userMessages(page).filter({ hasText: 'about tides' })).toHaveCount(0);
	await expect(kept).toHaveCount(1);
	await expect(kept).toContainText('long 150 about lighthouses');
	await marker.getByRole('button', { name: 'Show compacted messages' }).click();
	const originals = marker.getByRole('region', { name: 'Compacted messages' });
	await expect(originals.getByRole('article', { name: 'You' }).filter({ hasText: 'about tides' })).toHaveCount(1);
	await expect(originals.getByRole('article', { name: 'You' }).filter({ hasText: 'about lighthouses' })).toHaveCount(0);
	await marker.getByRole('button', { name: 'Hide compacted messages' }).click();

	// The next request: the system prompt, the summary, then the kept message.
	const answer = await sendAndWait(page, 'And the harbour?');
	await answer.getByRole('button', { name: 'What the model received' }).click();
	const received = page.getByRole('dialog', { name: 'What the model received' });
	const parts = received.getByRole('list', { name: 'Request parts' }).locator(':scope > li');
	await expect(parts.nth(0)).toContainText('System prompt');
	await expect(parts.nth(1)).toContainText('Summary (compaction)');
	await expect(parts.nth(2).locator('strong').first()).toHaveText('You');
	await expect(parts.nth(2)).toContainText('long 150 about lighthouses');
	await page.keyboard.press('Escape');
	await expect(received).toHaveCount(0);

	// Let go, the next compaction folds it.
	await keep.click();
	await expect(keep).toHaveAttribute('aria-pressed', 'false');
	await expect(kept.getByText('Kept in context', { exact: true })).toHaveCount(0);
	await expect(page.getByRole('status', { name: 'Context usage' })).not.toContainText('pinned');
	await compress(page, 2);
	await expect(kept).toHaveCount(0);
});

test('keeping more than half the window asks first: Cancel leaves the message as it was', async ({ page }) => {
	await openApp(page);
	await shrinkOfflineWindow(page, 1000);
	const answer = await sendAndWait(page, 'long 600 about lighthouses');
	const keep = answer.getByRole('button', { name: 'Keep in context' });
	await keep.click();
	const ask = page.getByRole('dialog', { name: 'Keep this message in context?' });
	await expect(ask).toContainText('more than half of the 1,000-token window of offline-mini');
	await ask.getByRole('button', { name: 'Cancel' }).click();
	await expect(ask).toHaveCount(0);
	await expect(keep).toHaveAttribute('aria-pressed', 'false');
	await expect(answer.getByText('Kept in context', { exact: true })).toHaveCount(0);

	await keep.click();
	await ask.getByRole('button', { name: 'Keep in context' }).click();
	await expect(keep).toHaveAttribute('aria-pressed', 'true');
	await expect(assistantMessages(page).last().getByText('Kept in context', { exact: true })).toBeVisible();
});
