// "What the model received" on a 390 × 844 touch screen: its title and Close stay on screen
// while the long request scrolls under them; Close, Escape and a tap beside the dialog close it
// (a tap inside does not); and a greyed-out "Copy as curl" says why.
import { expect, test, type Locator, type Page } from './test-base';
import { assistantMessages, openApp, sendAndWait } from './helpers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Opens the dialog of the last answer and returns it once the request is rebuilt. */
async function openReceived(page: Page): Promise<Locator> {
	await assistantMessages(page).last().getByRole('button', { name: 'What the model received' }).click();
	const dialog = page.getByRole('dialog', { name: 'What the model received' });
	await expect(dialog.getByLabel('Request body')).toBeVisible();
	return dialog;
}

test('the title and Close stay on screen while the request scrolls; Close, Escape and a tap on the backdrop close it; Copy as curl says why it is greyed out', async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'long 400 about harbours');
	await sendAndWait(page, 'long 400 about lighthouses');

	let dialog = await openReceived(page);
	const close = dialog.getByRole('button', { name: 'Close' });
	const title = dialog.getByRole('heading', { name: 'What the model received' });
	await expect(close).toBeInViewport();
	// The request is far taller than the screen: read to its end, the title and Close are still there.
	const end = dialog.getByText('The API key is never shown');
	await expect(end).not.toBeInViewport();
	await end.scrollIntoViewIfNeeded();
	await expect(end).toBeInViewport();
	await expect(close).toBeInViewport({ ratio: 1 });
	await expect(title).toBeInViewport({ ratio: 1 });

	// The offline model answers in this tab: there is no request to copy as curl, and it says so.
	const curl = dialog.getByRole('button', { name: 'Copy as curl' });
	await expect(curl).toBeDisabled();
	await expect(curl).toHaveAccessibleDescription(/runs in this tab.*no request went over the network/);
	await expect(dialog.getByText(/no request went over the network/)).toBeInViewport();

	await close.tap();
	await expect(dialog).toBeHidden();

	dialog = await openReceived(page);
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();

	// A tap on the text inside leaves it open; a tap on the dimmed page beside it closes it.
	dialog = await openReceived(page);
	await title.tap();
	await expect(dialog).toBeVisible();
	const box = (await dialog.boundingBox())!;
	expect(box.y).toBeGreaterThan(12);
	await page.touchscreen.tap(195, box.y / 2);
	await expect(dialog).toBeHidden();
});
