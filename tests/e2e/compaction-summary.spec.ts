// A compaction's summary in the transcript reads as part of the conversation: its section
// headings are never larger than the text of the messages around it.
import { expect, test, type Locator } from './test-base';
import { assistantMessages, messageBody, openApp, sendAndWait, transcript } from './helpers';

const fontSize = (element: Locator) => element.evaluate((node) => parseFloat(getComputedStyle(node).fontSize));

test("a summary's headings are no larger than the transcript's text", async ({ page }) => {
	await openApp(page);
	await sendAndWait(page, 'long 400 about lighthouses');
	await sendAndWait(page, 'long 400 about tides');
	await page.getByRole('button', { name: 'Compact now' }).click();
	const marker = transcript(page).getByRole('region', { name: 'Context compacted' });
	await expect(marker).toHaveCount(1);
	await marker.getByText('Summary the model sees instead').click();
	const headings = marker.getByRole('heading');
	await expect(headings.filter({ hasText: 'Goal' })).toBeVisible();

	const text = await fontSize(messageBody(assistantMessages(page).last()));
	const sizes = await headings.evaluateAll((nodes) => nodes.map((node) => `${node.textContent} ${parseFloat(getComputedStyle(node).fontSize)}`));
	expect(sizes.length).toBeGreaterThan(3);
	for (const entry of sizes) expect(Number(entry.split(' ').at(-1)), entry).toBeLessThanOrEqual(text);
});
