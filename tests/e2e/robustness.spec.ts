// Things users do that stress the app: a second tab on the same sessions, and a giant paste.
import { expect, test, type Page } from './test-base';
import { assistantMessages, messageText, openApp, sendAndWait, sendMessage, sessionLinks, userMessages, waitForAnswer } from './helpers';

test('a second tab sees new sessions and messages through live queries', async ({ page, context }) => {
	await openApp(page);
	const other = await context.newPage();
	await openApp(other);
	await sendMessage(page, 'Written in the first tab');
	await waitForAnswer(page);
	await expect(sessionLinks(other)).toHaveText(['Written in the first tab']);
	await sessionLinks(other).first().click();
	await expect(userMessages(other)).toHaveCount(1);
	await expect(assistantMessages(other)).toHaveCount(1);
	// And back: a message sent in the second tab appears in the first.
	await sendMessage(other, 'Reply from the second tab');
	await waitForAnswer(other);
	await expect(userMessages(page)).toHaveCount(2);
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'complete');
});

/**
 * Waits until a user message of `length` characters is shown whole: when the chat was compacted
 * (the reload draws the marker with the rest), it is shown from under the marker, or in the
 * session this one continues.
 */
async function expectShownWhole(page: Page, length: number): Promise<void> {
	await expect(async () => {
		const show = page.getByRole('region', { name: 'Context compacted' }).last().getByText('Show compacted messages', { exact: true });
		if (await show.count()) await show.click();
		const lengths = await Promise.all((await userMessages(page).all()).map(async (message) => (await messageText(message)).length));
		expect(Math.max(0, ...lengths)).toBe(length);
	}).toPass({ timeout: 15_000 });
}

test('a 1 MB paste is stored whole, answered, and the app stays responsive', async ({ page }) => {
	await openApp(page);
	const line = 'The quick brown fox jumps over the lazy dog. <b>not bold</b> *maybe* `code`\n';
	const paste = line.repeat(Math.ceil(1_000_000 / line.length));
	const box = page.getByRole('textbox', { name: 'Message' });
	// A paste arrives as one input event (Playwright's fill would type it through the IME path).
	await box.evaluate((el: HTMLTextAreaElement, text) => {
		el.value = text;
		el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
	}, paste);
	await box.press('Enter');
	await expect(page).toHaveURL(/\/s\/[^/]+$/, { timeout: 20_000 });
	await waitForAnswer(page, 'complete', 30_000);
	await expect.poll(() => messageText(userMessages(page).first())).toHaveLength(paste.length);
	// Still responsive: the search box filters at once and the next message is answered.
	const search = page.getByRole('searchbox', { name: 'Search sessions' });
	await search.fill('zebra');
	await expect(sessionLinks(page)).toHaveCount(0);
	await expect(page.getByText('No session matches.')).toBeVisible();
	await search.fill('lazy dog');
	await expect(sessionLinks(page)).toHaveCount(1);
	await sendAndWait(page, 'echo: still here');
	await expect(assistantMessages(page)).toHaveCount(2);
	await page.reload();
	await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'complete');
	// A 1 MB message outgrows the offline model's window, so the next turn may compact it away:
	// it is still stored whole.
	await expectShownWhole(page, paste.length);
});
