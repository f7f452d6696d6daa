// Compaction in the built app with the offline model: a long chat passes the threshold and is
// compacted on its own, the marker and the originals are shown, the state survives a reload,
// and an empty /compress changes nothing and fires nothing.
import { expect, test, type Page } from './test-base';
import { openApp, sendAndWait, transcript, userMessages } from './helpers';
import { navigate } from './plugin-helpers';

/** Gives the offline model a small window in Settings, so a few answers fill it. */
async function shrinkOfflineWindow(page: Page, tokens: number): Promise<void> {
	await navigate(page, 'Settings');
	await page.getByRole('combobox', { name: 'Model name' }).fill('offline-mini');
	await page.getByRole('spinbutton', { name: 'Context window (tokens)' }).fill(String(tokens));
	await page.getByRole('button', { name: 'Set window' }).click();
	await expect(page.getByText(`offline-mini: ${tokens.toLocaleString('en')} tokens`)).toBeVisible();
	await navigate(page, 'Chat');
}

/** Sends long messages, at most `turns` of them, until the chat has been compacted. */
async function chatUntilCompacted(page: Page, turns: number): Promise<void> {
	const meter = page.getByRole('status', { name: 'Context usage' });
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	for (let turn = 1; turn <= turns && (await marker.count()) === 0; turn++) {
		await sendAndWait(page, `long 300 about harbours, part ${turn}`);
		// The idle pass after an answer may compact: give it the moment it needs, no more.
		await expect(meter).not.toContainText('Compacting', { timeout: 15_000 });
	}
}

function postCompactionRows(page: Page) {
	return page.getByRole('region', { name: 'Hook log' }).getByRole('row').filter({ has: page.getByRole('cell', { name: 'post_compaction', exact: true }) });
}

test('a long chat with the offline model compacts on its own, shows the originals on request, and stays compacted after a reload', async ({ page }) => {
	// Five or six answers streamed at the offline model's typing pace: over half a minute on a quiet machine.
	test.slow();
	await openApp(page);
	await shrinkOfflineWindow(page, 2000);
	const meter = page.getByRole('status', { name: 'Context usage' });
	await expect(meter).toContainText('/ 2,000 tokens');

	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await chatUntilCompacted(page, 6);
	await expect(marker).toHaveCount(1);
	await expect(marker).toContainText(/Context compacted/);
	await expect(marker).toContainText(/tokens/);
	// The first question left the context: it is no longer in the transcript...
	await expect(userMessages(page).filter({ hasText: 'part 1' })).toHaveCount(0);
	// ...until the user asks to see what was compacted, read-only.
	await marker.getByRole('button', { name: 'Show compacted messages' }).click();
	const originals = marker.getByRole('region', { name: 'Compacted messages' });
	await expect(originals.getByRole('article', { name: 'You' }).filter({ hasText: 'part 1' })).toHaveCount(1);
	await expect(originals.getByRole('button', { name: 'Retry' })).toHaveCount(0);
	// Shown, the control says it hides them again.
	await expect(marker.getByRole('button', { name: 'Show compacted messages' })).toHaveCount(0);
	await marker.getByRole('button', { name: 'Hide compacted messages' }).click();
	await expect(originals).toHaveCount(0);
	await expect(marker.getByRole('button', { name: 'Show compacted messages' })).toHaveAttribute('aria-expanded', 'false');

	await page.reload();
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' })).toHaveCount(1);
	await expect(userMessages(page).filter({ hasText: 'part 1' })).toHaveCount(0);

	await navigate(page, 'Plugins');
	await expect(postCompactionRows(page)).toHaveCount(1);
	await expect(postCompactionRows(page)).toContainText('no plugin listens');
});

test('/compress on a short session says "Nothing to compact", and no post_compaction is recorded', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'Hello there');
	const box = page.getByRole('textbox', { name: 'Message' });
	await box.fill('/compress');
	await box.press('Enter');
	await expect(transcript(page).getByRole('article', { name: 'Command output' })).toContainText('Nothing to compact');
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' })).toHaveCount(0);
	await navigate(page, 'Plugins');
	await expect(page.getByRole('region', { name: 'Hook log' }).getByRole('row').filter({ hasText: 'post_llm_call' }).first()).toBeVisible();
	await expect(postCompactionRows(page)).toHaveCount(0);
});

test('Compact now compacts at once and says what it saved', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	await page.getByRole('button', { name: 'Compact now' }).click();
	await expect(transcript(page).getByRole('region', { name: 'Context compacted' })).toHaveCount(1);
	await expect(page.getByRole('status', { name: 'Compaction result' })).toContainText('Context compacted from');
});
