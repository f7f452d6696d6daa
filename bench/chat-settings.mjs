// Chat settings benchmark: the time from a click on "Chat settings" in the chat header to its
// dialog open on screen with its fields, the first time in a visit (its code loads then: a
// pointer over the button fetches it ahead of the click, as a real pointer does) and again after
// it. Prints figures; asserts nothing. Run: npx vite build && node bench/chat-settings.mjs
import { median, openAppPage, openBench } from './browser.mjs';
import { headline, size } from './quick.mjs';

const RUNS = size(7, 2);
const GOAL_MS = 100;
const bench = await openBench();
const first = [];
const again = [];

/** Clicks `button`; resolves to the ms from the click until the dialog is open with its System prompt field. */
async function timeOpen(page, button) {
	await page.evaluate(() => {
		const marks = (window.__marks = {});
		// From the click itself, as the page sees it (not from when the driver began to move the mouse).
		document.addEventListener('click', () => (marks.click = performance.now()), { capture: true, once: true });
		window.__shown = new Promise((resolve) => {
			const shown = () => [...document.querySelectorAll('dialog[open] textarea')].some((field) => field.labels?.[0]?.textContent?.includes('System prompt'));
			const observer = new MutationObserver(() => {
				if (!shown()) return;
				observer.disconnect();
				// The frame that shows it.
				requestAnimationFrame(() => resolve(performance.now() - marks.click));
			});
			observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['open'] });
		});
	});
	await button.click();
	return page.evaluate(() => window.__shown);
}

try {
	const { context, page } = await openAppPage(bench);
	for (let run = 0; run < RUNS; run++) {
		await page.goto(bench.url + '/');
		await page.getByRole('textbox', { name: 'Message' }).waitFor();
		const button = page.getByRole('button', { name: 'Chat settings' });
		first.push(await timeOpen(page, button));
		await page.keyboard.press('Escape');
		await page.locator('dialog[open]').waitFor({ state: 'hidden' });
		again.push(await timeOpen(page, button));
		await page.keyboard.press('Escape');
	}
	await context.close();
} finally {
	await bench.close();
}
const ms = (values) => `${median(values).toFixed(0)} ms (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`;
console.log(`Chat settings dialog on screen from the click on "Chat settings", the first time in a visit (its code loads then): ${ms(first)}`);
console.log(`  again: ${ms(again)}`);
headline(`Chat settings dialog on screen ${median(first).toFixed(0)} ms after the click the first time in a visit, ${median(again).toFixed(0)} ms again (goal < ${GOAL_MS} ms)`);
